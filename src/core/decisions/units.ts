/**
 * A question read as units of meaning, so that two questions can be aligned word by word
 * (align.ts). Every word is accounted for, as one of:
 *
 * - `content`: a word that says what the question is about, compared by its lemma (lemma.ts);
 * - `number`: a number or a code, compared by its digits ("E500" = "error 500", "'19" = "2019");
 * - `small`: one of the small words that change the answer although a cosine barely sees them —
 *   time (before / after), period (this / last month), degree (most / least), owner (my / our),
 *   person (I / you), quantity (more / less than), negation, restriction (only), tense (did / is),
 *   modality (can / should), particle (sign in / up), the slot asked for (how long / how much /
 *   where / who / why);
 * - `frame`: how the question is put ("how do I", "what's the way to", "is it possible to"), which
 *   a rewording changes freely;
 * - nothing: articles, auxiliaries other than the tense's, politeness ("please", "hi"), which no
 *   answer depends on.
 *
 * A sentence that asks nothing beside one that does ("Hi there, hope you're well.", "Welcome to
 * the show! First question: …", "Sorry, newbie here.") is an aside: the information-need model
 * (need.ts) reads each sentence, and an aside's units are marked, since a rewording drops it freely.
 *
 * English here, Chinese in units-zh.ts (segmented by segment-zh.ts); other scripts are read as content words.
 */
import { chineseUnits } from "./units-zh";
import { englishLexicon, lemma } from "../text/lemma";
import { informationNeed } from "../text/need";

export type { SmallGroup, Unit, UnitKind } from "./unit";
import type { SmallGroup, Unit, UnitKind } from "./unit";

/** Phrases read as one unit, longest first within a kind; `key` is what both sides compare. */
const PHRASES: readonly (readonly [RegExp, UnitKind, string, SmallGroup?])[] = [
  // the slot asked for (a frame around it is dropped with it)
  [/\bhow (?:long|much time|many (?:minutes|hours|days|weeks|months|years))\b/g, "small", "time", "asked_for"],
  [/\bwhat time\b|\bhow soon\b|\bwhen\b/g, "small", "time", "asked_for"],
  [/\bhow much\b|\bwhat (?:does|do|will|would) (?:it|they|this|that) cost\b/g, "small", "amount", "asked_for"],
  [/\bhow many\b/g, "small", "count", "asked_for"],
  [/\bwhere\b|\bwhat (?:place|location)\b/g, "small", "place", "asked_for"],
  // Who did it, or whom it was done to: "who taught you" / "who did you teach" ask for other people.
  [
    /\bwhom\b|\bwho (?:do|does|did|can|could|will|would|should|shall|may|might|must)(?= (?:i|you|we|they|he|she|it|my|your|our|their|his|her|the|a|an)\b)/g,
    "small",
    "person:object",
    "asked_for",
  ],
  [/\bwho\b/g, "small", "person", "asked_for"],
  [/\bwhy\b|\bhow come\b|\bwhat is the reason\b/g, "small", "reason", "asked_for"],
  // how the question is put: a way to do something …
  [
    /\b(?:how (?:do|can|could|should|would|might|must) (?:i|we|you|one)(?: go about)?|how (?:does|would) one|how (?:am i|are we) supposed to|how to|(?:what|which) (?:is|are) the (?:best |right |easiest |quickest |fastest |simplest |proper |correct )?(?:way|ways|steps|process|procedure|method)(?: to| for| of)?|is there (?:a|any) (?:way|option|setting)(?: to| for me to| i can)?|(?:can|could|would) you (?:please )?(?:tell|show|explain)(?: to)?(?: me| us)? how(?: to| i can| do i| you)?|(?:tell|show|explain)(?: to)?(?: me| us)? how(?: to| i can| you)?|what (?:do|should) i (?:need to )?do to|what steps (?:do|should) i take to|i (?:want|need|would like) to know how(?: to| i can)?|how)\b/g,
    "frame",
    "how",
  ],
  // … whether something can be done …
  [/\b(?:is it possible(?: for (?:me|us))? to|am i able to|are we able to|is there a way to|can|could|may)\b/g, "frame", "can"],
  // … or a fact (what / which, is there, do you …)
  [/\b(?:what|which)\b/g, "frame", "what"],
];

/** Small words, by the kind of difference they make; a list's words share one meaning ("since" = "after"). */
const SMALL: Readonly<Record<SmallGroup, readonly (readonly string[])[]>> = {
  time: [
    ["before", "prior"],
    ["after", "since", "once"],
    ["until", "till"],
    ["during", "while"],
  ],
  period: [
    ["this", "current", "currently", "now", "present"],
    ["last", "previous", "past", "prior", "ago"],
    ["next", "upcoming", "coming", "future"],
    ["today"],
    ["yesterday"],
    ["tomorrow"],
    ["recent", "recently", "latest", "new", "newest"],
    ["old", "older", "oldest", "earlier"],
  ],
  degree: [
    ["most", "best", "favorite", "favourite", "top", "highest", "maximum", "max"],
    ["least", "worst", "lowest", "minimum", "min", "bottom"],
    ["more", "better", "greater", "higher"],
    ["less", "fewer", "worse", "lower"],
    ["first", "earliest"],
    ["all", "every", "each", "both", "entire", "whole"],
    ["some", "either"],
    ["none", "neither"],
  ],
  owner: [
    ["my", "mine"],
    ["our", "ours"],
    ["your", "yours"],
    ["their", "theirs"],
    ["his"],
    ["her", "hers"],
    ["someone", "somebody", "anyone", "anybody", "other", "others", "else", "another", "everyone"],
  ],
  // Who does what to whom: "my friend sent me money" / "I sent my friend money".
  person: [
    ["i", "me", "myself"],
    ["we", "us", "ourselves"],
    ["you", "yourself", "yourselves"],
    ["they", "them", "themselves"],
    ["he", "him", "himself"],
    ["she", "herself"],
  ],
  quantity: [["over", "above", "exceed", "exceeds", "beyond"], ["under", "below", "within"], ["than"], ["at least"], ["at most", "up to"]],
  negation: [["not", "no", "never", "without", "nor", "cannot", "non", "unable"]],
  restriction: [
    ["only", "solely", "exclusively"],
    ["also", "too", "as well", "even"],
    ["except", "besides", "excluding"],
  ],
  // The question's tense, read from its auxiliary: "how many shows are you playing" / "did you play".
  tense: [
    ["did", "was", "were"],
    ["do", "does", "is", "are", "am"],
  ],
  modality: [
    ["should", "ought", "must", "need", "needs", "have to", "has to"],
    ["will", "would", "going to", "shall"],
    ["might", "maybe", "perhaps"],
  ],
  particle: [["in", "inside"], ["out", "outside"], ["up"], ["down"], ["on"], ["off"], ["back"], ["away"]],
  preposition: [
    ["from"],
    ["to", "toward", "towards", "into", "onto"],
    ["with"],
    ["for"],
    ["at"],
    ["by"],
    ["about"],
    ["of"],
    ["via", "through"],
  ],
  asked_for: [],
};

/** Words no answer depends on: articles, auxiliaries beyond the tense, politeness, fillers. */
const IGNORED = new Set(
  `a an the doing done be been being has have had having it its there
  please pls plz kindly hi hello hey thanks thank thx cheers dear sir madam guys quick question questions so
  then just really actually basically exactly anyway anyhow simply still as and or if whether that here way
  possible able get getting got know tell ask asking wondering wonder want wanted like help`.split(/\s+/),
);

const SMALL_INDEX = new Map<string, { key: string; group: SmallGroup }>();
for (const [group, lists] of Object.entries(SMALL) as [SmallGroup, (readonly string[])[]][])
  for (const list of lists) for (const word of list) SMALL_INDEX.set(word, { key: `${group}:${list[0]}`, group });

// Han is a letter too: a word of other letters and digits stops where Han starts ("100元" is 100 and 元).
const TOKEN = /\p{Script=Han}+|(?:(?!\p{Script=Han})[\p{L}\p{N}])+(?:[-_.'/](?:(?!\p{Script=Han})[\p{L}\p{N}])+)*|%/gu;
const PLACEHOLDER = /\uE000(\d+)\uE000/g;

/** The units of a question, in order, asides marked. */
export function questionUnits(question: string): Unit[] {
  const sentences = sentencesOf(question);
  // A sentence that ends in a question mark asks, however short ("My card was charged twice. Why?").
  const asks = sentences.length > 1 ? sentences.map((s) => /[?？]\s*$/u.test(s) || informationNeed(s).need) : [];
  const units = asks.includes(true)
    ? sentences.flatMap((s, i) => sentenceUnits(s).map((u) => (asks[i] ? u : { ...u, aside: true as const })))
    : sentenceUnits(question);
  return units.map((u, at) => ({ ...u, at }));
}

const BE_OR_GET = new Set("is are am was were be been being get gets got gotten getting".split(" "));
/** Irregular forms of these are auxiliaries ("could", "was"), not participles. */
const AUXILIARIES = new Set("be do have can will shall may must get".split(" "));

/**
 * The passive voice: a form of "be" or "get" followed, within four words, by a past participle
 * ("is tax included", "are the build artifacts uploaded", "can a subscription be shared"). Two
 * sides in different voices put the same roles in another order.
 */
export function passiveVoice(text: string): boolean {
  const words =
    text
      .toLowerCase()
      .replace(/['’]s\b/g, " is")
      .replace(/['’]re\b/g, " are")
      .match(/[a-z]+/g) ?? [];
  const { exceptions, verbs } = englishLexicon();
  const participle = (w: string) => {
    if (w.endsWith("ed")) return w.length > 4;
    const verb = exceptions.get(w);
    return verb !== undefined && verbs.has(verb) && !AUXILIARIES.has(verb) && !w.endsWith("ing");
  };
  return words.some((w, i) => BE_OR_GET.has(w) && words.slice(i + 1, i + 5).some(participle));
}

const SENTENCES = new Intl.Segmenter("en", { granularity: "sentence" });

/** Sentences as Unicode segments them (an abbreviation's full stop does not end one), and a lead-in before a colon. */
function sentencesOf(text: string): string[] {
  // Most questions are one sentence: nothing ends one before the text's own end.
  if (!/[.!?:;。！？：；][\s\S]*[\p{L}\p{N}]/u.test(text)) return [text];
  return [...SENTENCES.segment(text)].flatMap(({ segment }) => segment.split(/(?<=:)\s+/u)).filter((s) => /[\p{L}\p{N}]/u.test(s));
}

function sentenceUnits(question: string): Omit<Unit, "at">[] {
  const found: Omit<Unit, "at">[] = [];
  // Phrases first: each becomes a placeholder (a private-use character the text itself cannot hold,
  // normalizeQuestionText removes it), so its words are not read again as words.
  let text = normalizeQuestionText(question);
  for (const [pattern, kind, key, group] of PHRASES) {
    text = text.replace(pattern, (match) => {
      found.push({ text: match, key, kind, ...(group ? { group } : {}) });
      return ` \uE000${found.length - 1}\uE000 `;
    });
  }
  const units: Omit<Unit, "at">[] = [];
  for (const piece of text.split(PLACEHOLDER).map((p, i) => (i % 2 === 1 ? found[Number(p)]! : p))) {
    if (typeof piece !== "string") units.push(piece);
    else for (const m of piece.matchAll(TOKEN)) units.push(...wordUnits(m[0]));
  }
  return units;
}

function wordUnits(token: string): Omit<Unit, "at">[] {
  if (/^\p{Script=Han}/u.test(token)) return chineseUnits(token);
  // A unit written onto a number is a word of its own ("10-hour", "5GB"), an ordinal or plural ending is not ("1st", "1990s").
  const measured = /^(\d+(?:\.\d+)?)-?([a-z]{2,})$/.exec(token);
  if (measured && !/^(?:st|nd|rd|th|s)$/.test(measured[2]!))
    return [{ text: measured[1]!, key: measured[1]!.match(/\d+/g)!.join("."), kind: "number" }, ...wordUnits(measured[2]!)];
  if (/\d/.test(token)) return [{ text: token, key: token.match(/\d+/g)!.join("."), kind: "number" }];
  if (token === "%") return [{ text: token, key: "%", kind: "content" }];
  const word = token.replace(/'s$/, "");
  if (IGNORED.has(word)) return [];
  const small = SMALL_INDEX.get(word);
  if (small) return [{ text: word, key: small.key, kind: "small", group: small.group }];
  return [{ text: word, key: lemma(word.replace(/-/g, "")), kind: "content" }];
}

const NUMBER_WORDS: Readonly<Record<string, string>> = {
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
  thirteen: "13",
  fourteen: "14",
  fifteen: "15",
  sixteen: "16",
  seventeen: "17",
  eighteen: "18",
  nineteen: "19",
  twenty: "20",
  thirty: "30",
  forty: "40",
  fifty: "50",
  sixty: "60",
  seventy: "70",
  eighty: "80",
  ninety: "90",
  hundred: "100",
};

/**
 * Lower case, NFKC, one kind of quote and dash, contractions spelled out (what's → what is,
 * can't → can not), a short year as its full number ('19 → 2019), number words as digits and
 * "percent" as "%".
 */
export function normalizeQuestionText(text: string): string {
  return ` ${text
    .replace(/\uE000/g, " ")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\b(do|does|did|is|are|was|were|have|has|had|could|would|should|ca|wo)nt\b/g, "$1n't")
    .replace(/\b(what|how|where|who|when|why|that)s\b/g, "$1's")
    .replace(/\bim\b/g, "i'm")
    .replace(/\bcan't\b|\bcannot\b/g, "can not")
    .replace(/\bwon't\b/g, "will not")
    .replace(/n't\b/g, " not")
    .replace(/'re\b/g, " are")
    .replace(/'ve\b/g, " have")
    .replace(/'ll\b/g, " will")
    .replace(/'m\b/g, " am")
    .replace(/'d\b/g, " would")
    .replace(/\b(what|how|where|who|when|why|it|that|there|here)'s\b/g, "$1 is")
    .replace(/(^|[^\p{L}\p{N}])'(\d\d)\b/gu, (_, before: string, yy: string) => `${before}${Number(yy) < 50 ? "20" : "19"}${yy}`)
    .replace(/\b(?:percent|per cent)\b/g, "%")
    .replace(/\b(?:thank you|thanks)(?: so much| a lot| very much)?\b|\bsorry to bother you\b|\bquick q\b/g, " ")
    .replace(/\bur\b/g, "your")
    .replace(/\bu\b/g, "you")
    .replace(/\btwice\b/g, "2 times")
    .replace(/\bthrice\b/g, "3 times")
    .replace(/\b[a-z]+\b/g, (w) => NUMBER_WORDS[w] ?? w)
    .replace(/\s+/g, " ")} `;
}
