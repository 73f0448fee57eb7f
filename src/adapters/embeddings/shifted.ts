/**
 * A measuring instrument, not a production adapter: another model's vectors with every cosine
 * raised the way BGE's sit high (unrelated pairs at 0.5–0.7), to show that a deployment's self-fit
 * recovers decisions raw cosine gets wrong (docs/guides/calibration.md). Each unit vector v̂ becomes
 * v̂ + √1.5·u, u the unit vector along (1, …, 1); for vectors nearly orthogonal to u (as sentence
 * embeddings are) the cosine becomes ≈ (cos + 1.5) / 2.5: 0.1 → 0.64, 0.5 → 0.8. The dimensions stay.
 * Its model id is the inner one's with SHIFTED_SUFFIX, so its vectors never mix with the inner ones.
 */
import { shippedScale } from "../../core/scale/registry";
import type { Embedder } from "../../platform/ports/embedder";

export const SHIFTED_SUFFIX = "+shifted";
/** c² of the shift: cos′ ≈ (cos + c²) / (1 + c²). */
const SHIFT_SQUARED = 1.5;

export function shiftVector(vector: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const along = Math.sqrt(SHIFT_SQUARED / vector.length);
  return Float32Array.from(vector, (x) => x * scale + along);
}

export function shiftedEmbedder(inner: Embedder): Embedder {
  const model = inner.model + SHIFTED_SUFFIX;
  return {
    ...inner,
    model,
    scale: shippedScale(model),
    canEmbed: (text) => inner.canEmbed(text),
    embed: async (texts) => (await inner.embed(texts)).map(shiftVector),
  };
}
