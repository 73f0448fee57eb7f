/**
 * How two English lemmas relate in WordNet (scripts/build-lexicon.mjs keeps what a question needs):
 *
 *   synonym   they share one of each other's most frequent senses (buy / purchase, fix / repair);
 *   related   they share any sense seen in sense-tagged text, or one is a sense one step up from the
 *             other: a verb's hypernym or its hypernym (delete → remove, change → update), an
 *             adjective's similar-to (strange ≈ weird);
 *   opposite  one is the other's antonym in a frequent sense (enable / disable, most / least, open /
 *             close; not decline / take, though "take" can mean "accept").
 *
 * A noun's hypernyms are not read: a noun one step up names another thing (a dog is an animal). Nor
 * are co-hyponyms, words under one hypernym (piano / guitar, summer / winter): they are the
 * different things of one kind a question picks between.
 */
import { englishLexicon } from "./lemma";

export type WordRelation = "synonym" | "related" | "opposite";

interface Senses {
  top: readonly string[];
  own: readonly string[];
  up: readonly string[];
  opposite: readonly string[];
}

const NONE: Senses = { top: [], own: [], up: [], opposite: [] };
const parsed = new Map<string, Senses>();
let lines: Map<string, string> | null = null;

/** word → its line of sense ids, read from the lexicon once per isolate. */
function relationLines(): Map<string, string> {
  if (lines) return lines;
  const { nouns, verbs, adjectives, adverbs, relations, relatedVerbs } = englishLexicon();
  const words = [...[...new Set([...nouns, ...verbs, ...adjectives, ...adverbs])].sort(), ...relatedVerbs];
  const entries = relations.split("|");
  lines = new Map(words.flatMap((word, i) => (entries[i] ? [[word, entries[i]] as const] : [])));
  return lines;
}

/** A word's senses, parsed on first use (at most one entry per word of the lexicon: an unknown word is not kept). */
function sensesOf(word: string): Senses {
  let senses = parsed.get(word);
  if (senses) return senses;
  const line = relationLines().get(word);
  if (line === undefined) return NONE;
  const [top = [], more = [], up = [], opposite = []] = line.split(";").map((ids) => (ids ? ids.split(",") : []));
  senses = { top, own: [...top, ...more], up, opposite };
  parsed.set(word, senses);
  return senses;
}

const meet = (x: readonly string[], y: readonly string[]) => x.some((id) => y.includes(id));

/** How WordNet relates two lemmas; null when it does not. Adjectives of one degree are read by their base (larger / smaller as large / small). */
export function wordRelation(a: string, b: string): WordRelation | null {
  if (a === b) return "synonym";
  const [da, db] = DEGREE.test(a) && DEGREE.test(b) ? [degreeOf(a), degreeOf(b)] : [null, null];
  const sameDegree = da !== null && db !== null && da.degree === db.degree;
  const sa = sensesOf(sameDegree ? da.base : a);
  const sb = sensesOf(sameDegree ? db.base : b);
  if (sa === NONE || sb === NONE) return null;
  if (meet(sa.top, sb.top)) return "synonym";
  if (meet(sa.top, sb.opposite) || meet(sb.top, sa.opposite)) return "opposite";
  if (meet(sa.own, sb.own) || meet(sa.own, sb.up) || meet(sb.own, sa.up)) return "related";
  return null;
}

/** Morphy's adjective rules (WordNet): larger → large, hardest → hard, bigger → big, earlier → early. */
const DEGREE_RULES: readonly (readonly [RegExp, string, "er" | "est"])[] = [
  [/ier$/, "y", "er"],
  [/iest$/, "y", "est"],
  [/([bdgmnpt])\1er$/, "$1", "er"],
  [/([bdgmnpt])\1est$/, "$1", "est"],
  [/er$/, "", "er"],
  [/er$/, "e", "er"],
  [/est$/, "", "est"],
  [/est$/, "e", "est"],
];

const DEGREE = /(?:er|est)$/;

function degreeOf(word: string): { base: string; degree: "er" | "est" } | null {
  const { adjectives } = englishLexicon();
  for (const [suffix, replacement, degree] of DEGREE_RULES) {
    if (!suffix.test(word)) continue;
    const base = word.replace(suffix, replacement);
    if (adjectives.has(base)) return { base, degree };
  }
  return null;
}

/** Do two lemmas share a frequent sense? */
export function areSynonyms(a: string, b: string): boolean {
  return wordRelation(a, b) === "synonym";
}
