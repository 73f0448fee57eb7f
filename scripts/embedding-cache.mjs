// A disk cache of local-model embeddings for offline measurement scripts (`npm run calibrate --
// --metrics`, `npm run simulate:show`): texts are embedded once with USE-lite and stored under
// results/embeddings/ (git-ignored), keyed by text. Re-embedding ~3k texts costs ~30 s.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Returns a Map text → Float32Array for every text, embedding only the ones not cached yet.
 * @param {{id: string, embed: (texts: string[]) => Promise<number[][]>}} model
 * @param {string[]} texts
 */
export async function cachedEmbeddings(model, texts, { dir = "results/embeddings" } = {}) {
  const file = path.join(dir, `${model.id}.json`);
  /** @type {Record<string, number[]>} */
  const stored = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const missing = [...new Set(texts)].filter((t) => !(t in stored));
  for (let i = 0; i < missing.length; i += 64) {
    const batch = missing.slice(i, i + 64);
    const vectors = await model.embed(batch);
    batch.forEach((t, j) => {
      stored[t] = Array.from(vectors[j], (x) => Math.round(x * 1e6) / 1e6);
    });
    process.stderr.write(`\rembedding ${Math.min(i + 64, missing.length)}/${missing.length}`);
  }
  if (missing.length) {
    process.stderr.write("\n");
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(stored));
  }
  return new Map(texts.map((t) => [t, Float32Array.from(stored[t])]));
}
