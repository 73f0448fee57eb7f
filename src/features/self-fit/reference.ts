/**
 * The check a self-fit must pass to go in force: on pairs whose answer is not in doubt (shipped,
 * src/core/scale/tables/reference-pairs.json), its scale makes neither costly mistake — a
 * rewording is never `different` (nothing would show it as asked before), unrelated questions are
 * never `same` (dedupe would swallow one). `related`, the path a person sees, is never wrong here. Labels can be wrong, or
 * poisoned (80 uploaded pairs with their labels swapped once made every threshold 1, and "How do I
 * reset my password?" / "How can I reset my password?" `different` for the tenant): a fit on them
 * fails here and is kept as a candidate an admin can compare and promote, never in force by itself.
 */
import table from "../../core/scale/tables/reference-pairs.json";
import { decidePair } from "../../core/scale/pair";
import type { Embedder } from "../../platform/ports/embedder";
import { cosine } from "../../core/ranking/cosine";
import type { Scale } from "../../core/scale/scale";

/** The share of reference pairs a fit's scale must decide right to go in force. */
export const REFERENCE_MIN_AGREEMENT = 0.9;

export interface ReferenceCheck {
  pairs: number;
  agreement: number;
  /** The reference pairs it decided wrongly (at most 5), as a reviewer reads them. */
  wrong: { a: string; b: string; label: string; relation: string }[];
}

const PAIRS = (table as { pairs: { a: string; b: string; label: "paraphrase" | "unrelated" }[] }).pairs;

/** How `scale` decides the reference pairs, measured with `embedder` (its KV cache makes a second fit free). */
export async function checkReference(embedder: Embedder, scale: Scale): Promise<ReferenceCheck> {
  const texts = [...new Set(PAIRS.flatMap((p) => [p.a, p.b]))];
  const vectors = new Map(texts.map((t, i) => [t, i]));
  const embedded = await embedder.embed(texts);
  const wrong: ReferenceCheck["wrong"] = [];
  let right = 0;
  for (const p of PAIRS) {
    const raw = cosine(embedded[vectors.get(p.a)!]!, embedded[vectors.get(p.b)!]!);
    const { relation } = decidePair(p.a, p.b, raw, scale);
    if (p.label === "paraphrase" ? relation !== "different" : relation !== "same") right++;
    else if (wrong.length < 5) wrong.push({ a: p.a, b: p.b, label: p.label, relation });
  }
  return { pairs: PAIRS.length, agreement: Math.round((right / PAIRS.length) * 1000) / 1000, wrong };
}
