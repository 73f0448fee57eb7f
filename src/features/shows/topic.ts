/**
 * "Refresh topic": which questions of a show are about a topic the producer typed. A question is
 * on the topic when every content word of the topic appears in it, in any form of the word: its
 * whole text and its explicit topics are searched (not only the first words), word forms meet
 * through a small English root rule (consciousness, conscious, consciously, self-conscious; tax,
 * taxes; emotion, emotional), and nothing else does: a 4-letter shared start is not enough
 * (pain ≠ painting, gene ≠ general). CJK terms (bigrams) must match exactly.
 */
import { lexicalTerms } from "../../core/ranking/lexical";

/**
 * Endings that make another form of the same word, longest first; each strip must leave at least
 * MIN_ROOT letters. Plural -es only where English spells it (-xes, -ches, -shes, -sses, -zes), so
 * "issues" is "issue" + s, not "issu" + es.
 */
const ENDINGS: readonly (readonly [ending: string, replacement: string])[] = [
  ["ousness", ""],
  ["ously", ""],
  ["nesses", ""],
  ["ically", ""],
  ["ations", ""],
  ["ities", ""],
  ["ation", ""],
  ["ness", ""],
  ["ical", ""],
  ["ions", ""],
  ["isms", ""],
  ["ists", ""],
  ["ally", ""],
  ["ous", ""],
  ["ion", ""],
  ["ity", ""],
  ["ism", ""],
  ["ist", ""],
  ["ics", ""],
  ["ies", "y"],
  ["ied", "y"],
  ["ing", ""],
  ["al", ""],
  ["ic", ""],
  ["ed", ""],
  ["ly", ""],
  ["s", ""],
  ["y", ""],
];
const MIN_ROOT = 3;
/** At most this many endings come off one word (emotionally → emotional → emotion → emot). */
const MAX_STRIPS = 3;
const LATIN_WORD = /^[a-z][a-z0-9]*$/;

/** A plain -s is a plural or a verb form unless the word ends in -ss, -us or -is (class, status, analysis). */
function stripsS(word: string): boolean {
  return !/(?:ss|us|is)$/.test(word);
}

/** The root of one lower-case word: inflections and the derivations above removed; other words unchanged. */
export function wordRoot(word: string): string {
  let w = word.replace(/['’]s$/, "");
  if (!LATIN_WORD.test(w)) return w;
  if (/(?:x|z|ch|sh|ss)es$/.test(w) && w.length - 2 >= MIN_ROOT) w = w.slice(0, -2);
  for (let i = 0; i < MAX_STRIPS; i++) {
    const found = ENDINGS.find(
      ([ending, replacement]) =>
        w.endsWith(ending) && w.length - ending.length + replacement.length >= MIN_ROOT && (ending !== "s" || stripsS(w)),
    );
    if (!found) break;
    w = w.slice(0, w.length - found[0].length) + found[1];
  }
  // A silent final e is no part of the root (experience / experienced, machine / machines); short words keep it (care ≠ car).
  return w.length >= 5 && w.endsWith("e") ? w.slice(0, -1) : w;
}

/** The roots of a text's content words; a hyphenated word counts whole and by its parts (self-conscious → conscious). */
export function topicRoots(text: string): Set<string> {
  const roots = new Set<string>();
  for (const term of lexicalTerms(text)) {
    roots.add(wordRoot(term));
    if (term.includes("-")) for (const part of term.split("-")) if (part) roots.add(wordRoot(part));
  }
  return roots;
}

/**
 * Whether a question is on a topic: every content word of the topic has its root among the roots
 * of the question's text and explicit topics. A topic with no content word matches nothing.
 */
export function onTopic(question: { text: string; topics: readonly string[] }, topic: string): boolean {
  const wanted = topicRoots(topic);
  if (wanted.size === 0) return false;
  const have = topicRoots([question.text, ...question.topics].join(" \n "));
  for (const root of wanted) if (!have.has(root)) return false;
  return true;
}
