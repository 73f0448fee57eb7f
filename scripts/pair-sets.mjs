// The labelled pair sets of ../shared/data as the measurement scripts read them (`npm run calibrate
// -- --repeat`, `npm run decisions`): read by path, never copied into the project.
import { readFileSync } from "node:fs";
import path from "node:path";
import { rng } from "./calibration-fit.mjs";

/** The JSON lines of one file under the data folder. */
export function readJsonl(dataDir, file) {
  return readFileSync(path.join(dataDir, file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/**
 * stackfaq's paraphrase threads as pairs: each paraphrase with another of its thread (`twin`: the
 * same question), its nearest paraphrase of another thread by `closeness` (`nearest`: a hard
 * different one) and a random one of another thread (`stranger`), drawn with a seeded PRNG so
 * every script sees the same pairs.
 */
export function stackfaqThreadPairs(queries, closeness, seed = 20251019) {
  const random = rng(seed);
  return queries.map((q) => {
    const thread = q.relevant[0];
    const same = queries.filter((o) => o !== q && o.relevant[0] === thread);
    const others = queries.filter((o) => o.relevant[0] !== thread);
    const twin = same[Math.floor(random() * same.length)];
    let nearest = null;
    let best = -Infinity;
    for (const o of others) {
      const c = closeness(q, o);
      if (c > best) [best, nearest] = [c, o];
    }
    const stranger = others[Math.floor(random() * others.length)];
    return { q, thread, twin, nearest, stranger };
  });
}
