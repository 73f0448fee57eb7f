// A disk cache of embeddings for the measurement scripts (`npm run calibrate`, `npm run decisions`,
// `npm run simulate:show`): texts are embedded once per model and stored under results/embeddings/
// (git-ignored), keyed by text. Re-embedding ~3k texts costs ~30 s with USE-lite, and a Workers AI
// model (@cf/…, over the REST API) costs requests and money, so its file is also written when a
// run fails halfway: the next run embeds only what is still missing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Returns a Map text → Float32Array for every text, embedding only the ones not cached yet.
 * @param {{id: string, embed: (texts: string[]) => Promise<ArrayLike<number>[]>}} model
 * @param {string[]} texts
 */
export async function cachedEmbeddings(model, texts, { dir = "results/embeddings" } = {}) {
  // `@cf/baai/bge-m3` → `_cf_baai_bge-m3.json`: a model id may hold `/` and `@` (same rule as the
  // calibration tables' names in scripts/calibrate.mjs).
  const file = path.join(dir, `${model.id.replace(/[^A-Za-z0-9._-]/g, "_")}.json`);
  /** @type {Record<string, number[]>} */
  const stored = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const missing = [...new Set(texts)].filter((t) => !(t in stored));
  let added = 0;
  try {
    for (let i = 0; i < missing.length; i += 64) {
      const batch = missing.slice(i, i + 64);
      const vectors = await model.embed(batch);
      batch.forEach((t, j) => {
        stored[t] = Array.from(vectors[j], (x) => Math.round(x * 1e6) / 1e6);
      });
      added += batch.length;
      process.stderr.write(`\rembedding ${added}/${missing.length}`);
    }
  } finally {
    if (added) {
      process.stderr.write("\n");
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, JSON.stringify(stored));
    }
  }
  return new Map(texts.map((t) => [t, Float32Array.from(stored[t])]));
}
