/**
 * Two questions aligned unit by unit (units.ts): each unit of one side is matched with a unit of
 * the other, by the strongest link that holds, in this order:
 *
 *   same      the same lemma, number or small word's meaning (refunds / refund, E500 / 500,
 *             most / favorite, since / after);
 *   spelling  a slip of the keyboard (pasword / password: one edit in five letters, two in eight);
 *   synonym   WordNet synonyms (buy / purchase, fix / repair);
 *   stem      one word a derivation of the other (deletion / delete, invoices / invoice).
 *
 * What is left is the evidence: a content word, number or answer-changing small word with no
 * partner (`hard`), or a small word whose meaning an unmarked side takes for granted (`soft`:
 * "my account" / "the account", "this error" / "the error", "tour in" / "tour"). A small word
 * left on both sides in one group ("last" / "this", "sign in" / "sign up") is always hard.
 * `same` (same-question.ts) needs no hard leftover; the rest feeds its P(same).
 */
import { BoundedMap } from "../base/bounded-map";
import { englishLexicon } from "../text/lemma";
import { areSynonyms } from "../text/synonyms";
import { questionUnits, type SmallGroup, type Unit } from "./units";

export type LinkKind = "same" | "spelling" | "synonym" | "stem";

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
 * ("this"), a modal ("should I"), a particle ("tour in"). Others change the answer even alone:
 * "before", "last month", "most", "not", "only", "how long".
 */
const SOFT_ALONE: ReadonlySet<SmallGroup> = new Set(["owner", "modality", "particle", "preposition"]);
/** Small words never decisive: a rewording changes its prepositions freely ("in Jest" / "with Jest"). */
const ALWAYS_SOFT: ReadonlySet<SmallGroup> = new Set(["preposition"]);
const SOFT_KEYS: ReadonlySet<string> = new Set(["period:this"]);
/** Owners never taken for granted: "someone else's fork", "another user's password" name a different owner. */
const HARD_KEYS: ReadonlySet<string> = new Set(["owner:someone"]);

export function alignQuestions(a: string, b: string): Alignment {
  return alignUnits(unitsOf(a), unitsOf(b));
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

export function alignUnits(unitsA: readonly Unit[], unitsB: readonly Unit[]): Alignment {
  const framesA = unitsA.filter((u) => u.kind === "frame");
  const framesB = unitsB.filter((u) => u.kind === "frame");
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
    swapped: swappedPair(restA, restB) ?? directionSwapped(restA, restB) ?? modifierSwapped(restA, restB),
  };
}

function splitHard(left: readonly Unit[], other: readonly Unit[]): [hard: Unit[], soft: Unit[]] {
  const hard: Unit[] = [];
  const soft: Unit[] = [];
  for (const u of left) {
    const alone = u.kind === "small" && (SOFT_ALONE.has(u.group!) || SOFT_KEYS.has(u.key)) && !HARD_KEYS.has(u.key);
    const contrasted = other.some((o) => o.kind === "small" && o.group === u.group) && !ALWAYS_SOFT.has(u.group!);
    (alone && !contrasted ? soft : hard).push(u);
  }
  return [hard, soft];
}

const PASSES: readonly (readonly [LinkKind, (a: Unit, b: Unit) => boolean])[] = [
  ["same", (a, b) => a.kind === b.kind && a.key === b.key],
  ["spelling", (a, b) => a.kind === "content" && b.kind === "content" && typo(a.key, b.key)],
  ["synonym", (a, b) => a.kind === "content" && b.kind === "content" && areSynonyms(a.key, b.key)],
  ["stem", (a, b) => a.kind === "content" && b.kind === "content" && sameStem(a.key, b.key)],
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
 * four letters on either side (deletion / delete, payment / pay is too short to tell).
 */
function sameStem(x: string, y: string): boolean {
  if (/\P{Script=Latin}/u.test(x + y)) return false;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return i >= 5 && x.length - i <= 4 && y.length - i <= 4;
}

/**
 * The same units in the same order but two that changed places around a word between them (both
 * sides otherwise equal): their roles changed. Two neighbours that change places are a reordering
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
      found.set(u.key, units.slice(i + 1).find((o) => o.kind === "content" || o.kind === "number") ?? null);
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
  const words = (units: readonly Unit[]) =>
    [...new Set(units.filter((u) => u.kind === "content" || u.kind === "number").map((u) => u.key))].sort().join(" ");
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

/** A word written as a verb's inflection: "supports", "merged", "running" (its lemma a verb, its form another). */
function inflectedVerb(unit: Unit): boolean {
  return englishLexicon().verbs.has(unit.key) && unit.text !== unit.key;
}

const FROM = "preposition:from";
const TO = "preposition:to";
