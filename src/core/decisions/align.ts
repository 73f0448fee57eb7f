/**
 * Two questions aligned unit by unit (units.ts): each unit of one side is matched with a unit of
 * the other, by the strongest link that holds, in this order:
 *
 *   same      the same lemma, number or small word's meaning (refunds / refund, E500 / 500,
 *             most / favorite, since / after);
 *   spelling  a slip of the keyboard (pasword / password: one edit in five letters, two in eight);
 *   synonym   WordNet synonyms (buy / purchase, fix / repair);
 *   stem      one word a derivation of the other (deletion / delete, invoices / invoice);
 *   related   WordNet relates them less closely: a rarer shared sense, or one a sense up from the
 *             other (delete / remove, change / update, strange / weird), never antonyms.
 *
 * What is left is the evidence: a content word, number or answer-changing small word with no
 * partner (`hard`), or a small word whose meaning an unmarked side takes for granted (`soft`:
 * "my account" / "the account", "this error" / "the error", "tour in" / "tour"), or a unit of an
 * aside, a sentence that asks nothing (units.ts: "Hi there, hope you're well."). A small word
 * left on both sides in one group ("last" / "this", "sign in" / "sign up") is always hard.
 * `same` (same-question.ts) needs no hard leftover; the rest feeds its P(same).
 */
import { BoundedMap } from "../base/bounded-map";
import { englishLexicon } from "../text/lemma";
import { wordRelation } from "../text/synonyms";
import { passiveVoice, questionUnits, type SmallGroup, type Unit } from "./units";

export type LinkKind = "same" | "spelling" | "synonym" | "stem" | "related";

export interface Link {
  a: Unit;
  b: Unit;
  kind: LinkKind;
}

export interface Alignment {
  links: Link[];
  /** Units of a (of b) no unit of the other side matches, that change what is asked. */
  onlyA: Unit[];
  onlyB: Unit[];
  /** Unmatched units an unmarked side takes for granted. */
  softA: Unit[];
  softB: Unit[];
  /** The two sides put the question differently ("how do I" / "can I"). */
  frameDiffers: boolean;
  /** The same words with two of them changing places ("from the backlog to the sprint" / "from the sprint to the backlog"). */
  swapped: [string, string] | null;
}

/**
 * Small words an unmarked side takes for granted when alone: whose account ("my"), which error
 * ("this"), a tense ("is it", "did it"), a modal ("should I"), a particle ("tour in"). Others change the answer even alone:
 * "before", "last month", "most", "not", "only", "how long".
 */
const SOFT_ALONE: ReadonlySet<SmallGroup> = new Set(["owner", "person", "tense", "modality", "particle", "preposition"]);
/** Small words never decisive: a rewording changes its prepositions freely ("in Jest" / "with Jest"). */
const ALWAYS_SOFT: ReadonlySet<SmallGroup> = new Set(["preposition"]);
const SOFT_KEYS: ReadonlySet<string> = new Set(["period:this"]);
/** Owners never taken for granted: "someone else's fork", "another user's password" name a different owner. */
const HARD_KEYS: ReadonlySet<string> = new Set(["owner:someone"]);

export function alignQuestions(a: string, b: string): Alignment {
  return alignUnits(unitsOf(a), unitsOf(b), [passiveVoice(a), passiveVoice(b)]);
}

/**
 * A text's units, remembered per isolate: a context call compares its question with each similar question, and
 * the same memories come back call after call. At most UNITS_REMEMBERED texts, about 0.7 MB (2.6 KB a text,
 * measured on the benches' memories). The units are never changed after they are made.
 */
const UNITS_REMEMBERED = 256;
const unitsSeen = new BoundedMap<string, readonly Unit[]>(UNITS_REMEMBERED);
function unitsOf(text: string): readonly Unit[] {
  let units = unitsSeen.get(text);
  if (!units) {
    units = questionUnits(text);
    unitsSeen.set(text, units);
  }
  return units;
}

function alignUnits(unitsA: readonly Unit[], unitsB: readonly Unit[], [passiveA, passiveB]: [boolean, boolean]): Alignment {
  // An aside's frame ("First question: …") is not how the question is put.
  const framesA = unitsA.filter((u) => u.kind === "frame" && !u.aside);
  const framesB = unitsB.filter((u) => u.kind === "frame" && !u.aside);
  const restA = unitsA.filter((u) => u.kind !== "frame");
  const restB = unitsB.filter((u) => u.kind !== "frame");
  const links: Link[] = [];
  const usedA = new Set<Unit>();
  const usedB = new Set<Unit>();
  for (const [kind, linked] of PASSES) {
    for (const ua of restA) {
      if (usedA.has(ua)) continue;
      const ub = restB.find((u) => !usedB.has(u) && linked(ua, u));
      if (!ub) continue;
      usedA.add(ua);
      usedB.add(ub);
      links.push({ a: ua, b: ub, kind });
    }
  }
  // A word said twice on one side is matched once its first mention is ("Node 18 to Node 20" / "node v18 to v20").
  const linkedKeys = new Set(links.flatMap((l) => [l.a.key, l.b.key]));
  const leftA = restA.filter((u) => !usedA.has(u) && !linkedKeys.has(u.key));
  const leftB = restB.filter((u) => !usedB.has(u) && !linkedKeys.has(u.key));
  const [onlyA, softA] = splitHard(leftA, leftB);
  const [onlyB, softB] = splitHard(leftB, leftA);
  const keys = (frames: readonly Unit[]) => [...new Set(frames.map((f) => f.key))].sort().join(" ");
  return {
    links,
    onlyA,
    onlyB,
    softA,
    softB,
    frameDiffers: keys(framesA) !== keys(framesB),
    swapped:
      swappedPair(restA, restB) ??
      swappedPair(restA.filter(isWord), restB.filter(isWord)) ??
      directionSwapped(restA, restB) ??
      modifierSwapped(restA, restB) ??
      countedSwapped(restA, restB) ??
      negationMoved(restA, restB, links) ??
      (passiveA === passiveB ? pivotSwapped(links) : agentMoved(passiveA ? restA : restB, passiveA ? links : links.map(flip))),
  };
}

function splitHard(left: readonly Unit[], other: readonly Unit[]): [hard: Unit[], soft: Unit[]] {
  const hard: Unit[] = [];
  const soft: Unit[] = [];
  for (const u of left) {
    if (u.aside) {
      soft.push(u);
      continue;
    }
    const alone = u.kind === "small" && (SOFT_ALONE.has(u.group!) || SOFT_KEYS.has(u.key)) && !HARD_KEYS.has(u.key);
    const contrasted = other.some((o) => o.kind === "small" && o.group === u.group) && !ALWAYS_SOFT.has(u.group!);
    (alone && !contrasted ? soft : hard).push(u);
  }
  return [hard, soft];
}

/** The grammatical person a pronoun or possessive names: I, me and my are "i". */
function personOf(u: Unit): string | null {
  if (u.group === "person") return u.key.slice("person:".length);
  return u.group === "owner" ? (OWNER_PERSON[u.key] ?? null) : null;
}
const OWNER_PERSON: Readonly<Record<string, string>> = {
  "owner:my": "i",
  "owner:our": "we",
  "owner:your": "you",
  "owner:their": "they",
  "owner:his": "he",
  "owner:her": "she",
};

const PASSES: readonly (readonly [LinkKind, (a: Unit, b: Unit) => boolean])[] = [
  ["same", (a, b) => a.kind === b.kind && a.key === b.key],
  // One person named two ways ("damage I cause" / "damage to my car"): after the same forms, so roles can be read.
  ["same", (a, b) => personOf(a) !== null && personOf(a) === personOf(b)],
  ["spelling", (a, b) => a.kind === "content" && b.kind === "content" && typo(a.key, b.key)],
  ["synonym", (a, b) => a.kind === "content" && b.kind === "content" && wordRelation(a.key, b.key) === "synonym"],
  ["stem", (a, b) => a.kind === "content" && b.kind === "content" && sameStem(a.key, b.key)],
  ["related", (a, b) => a.kind === "content" && b.kind === "content" && wordRelation(a.key, b.key) === "related"],
];

/** One edit in a word of five letters or more, two in eight or more, the first letter kept (a slip, not another word). */
function typo(x: string, y: string): boolean {
  const shorter = Math.min(x.length, y.length);
  if (shorter < 5 || x[0] !== y[0] || /\P{Script=Latin}/u.test(x + y)) return false;
  return editDistance(x, y, shorter >= 8 ? 2 : 1) <= (shorter >= 8 ? 2 : 1);
}

/** Levenshtein distance with transpositions, stopping early past `max`. */
export function editDistance(x: string, y: string, max: number): number {
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[y.length]!;
}

/**
 * One word the other's derivation: a shared start of five letters or more that leaves at most
 * four letters on either side (deletion / delete, payment / pay is too short to tell); in Chinese,
 * one word inside the other, a compound and its morpheme (忘 / 忘记, 号 / 号码, 改 / 修改).
 */
function sameStem(x: string, y: string): boolean {
  if (HAN.test(x) && HAN.test(y)) return x !== y && (x.includes(y) || y.includes(x));
  if (/\P{Script=Latin}/u.test(x + y)) return false;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return i >= 5 && x.length - i <= 4 && y.length - i <= 4;
}

/** A content word or a number: what a question is about, its small words aside. */
const isWord = (u: Unit) => u.kind === "content" || u.kind === "number";

/**
 * The same units in the same order but two that changed places around a word between them (both
 * sides otherwise equal): their roles changed. Also read on the words alone, since a small word
 * may go with one of them ("commits on my branch but not on main" / "on main but not on my branch"). Two neighbours that change places are a reordering
 * ("where is the invoice sent" / "where do you send the invoice").
 */
function swappedPair(a: readonly Unit[], b: readonly Unit[]): [string, string] | null {
  if (a.length !== b.length) return null;
  const differ = a.flatMap((u, i) => (u.key === b[i]!.key ? [] : [i]));
  if (differ.length !== 2) return null;
  const [i, j] = differ as [number, number];
  return j - i >= 2 && a[i]!.key === b[j]!.key && a[j]!.key === b[i]!.key ? [a[i]!.text, a[j]!.text] : null;
}

/**
 * The same words in other roles, read from their prepositions: the first content word after
 * "from" and after "to" / "into" ("copy a file from my host into a container" / "… from a
 * container to my host" ask opposite directions); when both sides say the same words, any
 * preposition whose object changed ("merge my branch into main" / "merge main into my branch",
 * "can my employer pay for my subscription" / "can I pay for my employer's subscription"); and a
 * preposition left without its object on one side only, its object moved to the front ("what is
 * cancer a risk factor for?" / "what are the risk factors for cancer?" ask the other way round).
 */
function directionSwapped(a: readonly Unit[], b: readonly Unit[]): [string, string] | null {
  const objects = (units: readonly Unit[]) => {
    const found = new Map<string, Unit | null>();
    units.forEach((u, i) => {
      if (u.group !== "preposition" || found.has(u.key)) return;
      found.set(u.key, units.slice(i + 1).find(isWord) ?? null);
    });
    return found;
  };
  const oa = objects(a);
  const ob = objects(b);
  const same = (x?: Unit | null, y?: Unit | null) => !!x && !!y && x.key === y.key;
  const [fromA, toA, fromB, toB] = [oa.get(FROM), oa.get(TO), ob.get(FROM), ob.get(TO)];
  if (same(fromA, toB) && !same(fromA, fromB)) return [fromA!.text, toA?.text ?? fromB?.text ?? "?"];
  if (same(toA, fromB) && !same(toA, toB)) return [toA!.text, fromA?.text ?? toB?.text ?? "?"];
  // With the same words on both sides, a preposition's object that changed is a role that changed.
  const words = (units: readonly Unit[]) => [...new Set(units.filter(isWord).map((u) => u.key))].sort().join(" ");
  if (words(a) === words(b))
    for (const [key, objectA] of oa) {
      const objectB = ob.get(key);
      if (objectA && objectB && objectA.key !== objectB.key) return [objectA.text, objectB.text];
    }
  for (const [key, objectA] of oa) {
    const objectB = ob.get(key);
    if (objectB === undefined || (objectA === null) === (objectB === null)) continue;
    const object = (objectA ?? objectB)!;
    const stranded = objectA === null ? a : b;
    if (stranded.some((u) => u.key === object.key)) return [object.text, key.split(":")[1]!];
  }
  return null;
}

/**
 * The same noun qualified by another word on each side, both words said on both sides: the
 * qualifiers changed places ("a recipe from a restaurant for a home kitchen" / "a home recipe for a
 * restaurant kitchen"). A noun compound is read as two content words in a row: the second a noun
 * and never a verb ("price shown at checkout include tax" has no compound at "include"), the first
 * not a verb's inflected form ("evidence supports machine consciousness" has none at "supports";
 * "my feature branch" has one).
 */
function modifierSwapped(a: readonly Unit[], b: readonly Unit[]): [string, string] | null {
  const { nouns, verbs } = englishLexicon();
  const qualifiers = (units: readonly Unit[]) => {
    const found = new Map<string, Unit>();
    units.forEach((head, i) => {
      const before = units[i - 1];
      if (before?.kind === "content" && head.kind === "content" && nouns.has(head.key) && !verbs.has(head.key) && !inflectedVerb(before))
        found.set(head.key, before);
    });
    return found;
  };
  const keysA = new Set(a.map((u) => u.key));
  const keysB = new Set(b.map((u) => u.key));
  const qb = qualifiers(b);
  for (const [head, qa] of qualifiers(a)) {
    const other = qb.get(head);
    if (other && other.key !== qa.key && keysB.has(qa.key) && keysA.has(other.key)) return [qa.text, other.text];
  }
  return null;
}

/**
 * The same words with a number counting another noun on each side: "more than one discount code
 * on an order" / "a discount code on more than one order". A number counts the word right after
 * it when that word is marked for the count (one code, two codes); a number after a noun labels it
 * instead (status 429, Node 18).
 */
function countedSwapped(a: readonly Unit[], b: readonly Unit[]): [string, string] | null {
  const counted = (units: readonly Unit[]) => {
    const found = new Map<string, Unit>();
    units.forEach((u, i) => {
      const noun = units[i + 1];
      if (u.kind !== "number" || noun?.kind !== "content" || found.has(u.key)) return;
      if (u.key === "1" || noun.text !== noun.key) found.set(u.key, noun);
    });
    return found;
  };
  const keysA = new Set(a.map((u) => u.key));
  const keysB = new Set(b.map((u) => u.key));
  const cb = counted(b);
  for (const [number, nounA] of counted(a)) {
    const nounB = cb.get(number);
    if (nounB && nounB.key !== nounA.key && keysB.has(nounA.key) && keysA.has(nounB.key)) return [nounA.text, nounB.text];
  }
  return null;
}

/**
 * Two words whose order flips around a third that stays between them, in one voice: "pass locally
 * but fail in CI" / "fail locally but pass in CI", "12 eggs in 3 minutes" / "3 eggs in 12
 * minutes". A block moved whole ("after I pay, where …") has no word between it and what it
 * passed; the passive voice on one side only ("is tax included in the price" / "does the price
 * include tax") turns roles around by itself.
 */
function pivotSwapped(links: readonly Link[]): [string, string] | null {
  // The persons count: "my friend sent me" / "I sent my friend".
  const words = roleWords(links);
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j < words.length; j++) {
      const [x, y] = [words[i]!, words[j]!];
      if (x.b.at < y.b.at) continue;
      if (words.slice(i + 1, j).some((z) => z.b.at > y.b.at && z.b.at < x.b.at)) return [x.a.text, y.a.text];
    }
  return null;
}

/**
 * One side passive with its doer after "by", who in the active side comes after the verb: the doer
 * became the one it is done to ("being directed by your wife" / "directing your wife"). A rewording
 * into the active voice puts the doer first ("uploaded by the pipeline" / "the pipeline uploads").
 */
function agentMoved(passive: readonly Unit[], links: readonly Link[]): [string, string] | null {
  const partner = new Map(links.map((l) => [l.a, l.b]));
  const by = passive.findIndex((u) => u.key === BY);
  const doer = passive.slice(by + 1).find(isWord);
  const verb = passive
    .slice(0, Math.max(by, 0))
    .reverse()
    .find((u) => u.kind === "content");
  if (by < 0 || !doer || !verb) return null;
  const [doerThere, verbThere] = [partner.get(doer), partner.get(verb)];
  return doerThere && verbThere && doerThere.at > verbThere.at ? [verb.text, doer.text] : null;
}

const flip = (l: Link): Link => ({ a: l.b, b: l.a, kind: l.kind });

/** The linked words that carry roles, in a's order: content words, numbers, persons and owners. */
function roleWords(links: readonly Link[]): Link[] {
  return links.filter((l) => isWord(l.a) || l.a.group === "owner" || l.a.group === "person").sort((x, y) => x.a.at - y.a.at);
}

/**
 * A negation said on both sides but of another verb: "I didn't receive my order but it's marked as
 * delivered" / "I received my order but it's marked as not delivered". The verbs read are the ones
 * written inflected (received, marked), since a base form may be a noun ("npm install not working").
 */
function negationMoved(a: readonly Unit[], b: readonly Unit[], links: readonly Link[]): [string, string] | null {
  const partner = new Map(links.map((l) => [l.a, l.b]));
  for (const link of links) {
    if (link.a.group !== "negation") continue;
    const before = (units: readonly Unit[], at: number) => units.filter((u) => u.at < at && u.kind === "content" && inflectedVerb(u));
    const verbsA = before(a, link.a.at);
    const verbsB = before(b, link.b.at);
    const partners = verbsA.map((u) => partner.get(u));
    const moved = verbsA.find((u, i) => !verbsB.includes(partners[i]!)) ?? verbsB.find((u) => !partners.includes(u));
    if (moved) return [link.a.text, moved.text];
  }
  return null;
}

/** A word written as a verb's inflection: "supports", "merged", "running" (its lemma a verb, its form another). */
function inflectedVerb(unit: Unit): boolean {
  return englishLexicon().verbs.has(unit.key) && unit.text !== unit.key;
}

const HAN = /^\p{Script=Han}+$/u;

const FROM = "preposition:from";
const BY = "preposition:by";
const TO = "preposition:to";
