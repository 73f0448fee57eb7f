/**
 * English lemmas by WordNet's Morphy (the rules of wink-lemmatizer, which the node tests compare
 * this with): an irregular form's lemma from WordNet's exception lists (bought → buy, children →
 * child), else the first suffix rule whose stripped form is a word of that part of speech
 * (refunds → refund, shipping → ship, taking → take, boxes → box). Verbs first, then nouns:
 * a question's inflected words are mostly verbs and plural nouns. Adjectives keep their degree
 * (faster, fastest): "most" and "least" are what a comparison asks, not an inflection to fold.
 * The lexicon is src/core/text/tables/en-lexicon.json (scripts/build-lexicon.mjs), read on first use.
 */
import lexiconTable from "./tables/en-lexicon.json";

interface Lexicon {
  nouns: ReadonlySet<string>;
  verbs: ReadonlySet<string>;
  adjectives: ReadonlySet<string>;
  adverbs: ReadonlySet<string>;
  exceptions: ReadonlyMap<string, string>;
  /** Each word's related senses (synonyms.ts), "|"-separated in the order of the vocabulary's words sorted, then of `relatedVerbs`. */
  relations: string;
  /** Verbs outside the vocabulary that have relations (delete, upload). */
  relatedVerbs: readonly string[];
}

let lexicon: Lexicon | null = null;

/** The lexicon, built from its JSON once per isolate. */
export function englishLexicon(): Lexicon {
  if (lexicon) return lexicon;
  const t = lexiconTable as Record<"nouns" | "verbs" | "adjectives" | "adverbs", string> & {
    exceptions: Record<string, string>;
    relations: string;
    relatedVerbs: string;
  };
  const words = (list: string) => new Set(list.split(" "));
  lexicon = {
    nouns: words(t.nouns),
    verbs: words(t.verbs),
    adjectives: words(t.adjectives),
    adverbs: words(t.adverbs),
    exceptions: new Map(Object.entries(t.exceptions)),
    relations: t.relations,
    relatedVerbs: t.relatedVerbs.split(" "),
  };
  return lexicon;
}

const VERB_RULES: readonly (readonly [RegExp, string])[] = [
  [/s$/, ""],
  [/ies$/, "y"],
  [/es$/, ""],
  [/es$/, "e"],
  [/ed$/, ""],
  [/ed$/, "e"],
  [/ing$/, ""],
  [/ing$/, "e"],
];
const NOUN_RULES: readonly (readonly [RegExp, string])[] = [
  [/s$/, ""],
  [/ses$/, "s"],
  [/xes$/, "x"],
  [/zes$/, "z"],
  [/ves$/, "f"],
  [/ches$/, "ch"],
  [/shes$/, "sh"],
  [/men$/, "man"],
  [/ies$/, "y"],
];

/** The lemma of a lower-case English word; the word itself when WordNet does not know it. */
export function lemma(word: string): string {
  const { exceptions, verbs, nouns } = englishLexicon();
  if (word.length <= 3) return exceptions.get(word) ?? word;
  const irregular = exceptions.get(word);
  if (irregular) return irregular;
  // A form that is also a word of its own ("cards", "glasses") still folds to its lemma, as Morphy's first answer.
  return strip(word, VERB_RULES, verbs) ?? undoubled(word, verbs) ?? strip(word, NOUN_RULES, nouns) ?? word;
}

function strip(word: string, rules: readonly (readonly [RegExp, string])[], known: ReadonlySet<string>): string | null {
  for (const [suffix, by] of rules) {
    const stripped = word.replace(suffix, by);
    if (stripped !== word && known.has(stripped)) return stripped;
  }
  return null;
}

/** shipping → ship, stopped → stop: the doubled consonant of a short verb, which WordNet lists among the exceptions only for some. */
function undoubled(word: string, verbs: ReadonlySet<string>): string | null {
  const m = /^(.*([bdgklmnprtz]))\2(?:ed|ing)$/.exec(word);
  return m && verbs.has(m[1]!) ? m[1]! : null;
}
