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
import { wordRelation } from "../text/synonyms";
import { changedRoles } from "./roles";
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
 * Small words an unmarked side takes for granted when alone: whose account ("my"), who ("I"),
 * which error ("this"), a tense ("is it", "did it"), a modal ("should I"), a particle ("tour in").
 * Others change the answer even alone: "before", "last month", "most", "not", "only", "how long".
 */
const SOFT_ALONE: ReadonlySet<SmallGroup> = new Set(["owner", "person", "tense", "modality", "particle", "preposition"]);
/** Small words never decisive: a rewording changes its prepositions freely ("in Jest" / "with Jest"). */
const ALWAYS_SOFT: ReadonlySet<SmallGroup> = new Set(["preposition"]);
const SOFT_KEYS: ReadonlySet<string> = new Set(["period:this"]);
/** Owners never taken for granted: "someone else's fork", "another user's password" name a different owner. */
const HARD_KEYS: ReadonlySet<string> = new Set(["owner:someone"]);

export function alignQuestions(a: string, b: string): Alignment {
  const [ra, rb] = [readingOf(a), readingOf(b)];
  return alignUnits(ra.units, rb.units, [ra.passive, rb.passive]);
}

/**
 * A text's units and voice, remembered per isolate: a context call compares its question with each similar
 * question, and the same memories come back call after call. At most UNITS_REMEMBERED texts, about 0.7 MB
 * (2.6 KB a text, measured on the benches' memories). A reading is never changed after it is made.
 */
const UNITS_REMEMBERED = 256;
interface Reading {
  units: readonly Unit[];
  passive: boolean;
}
const readings = new BoundedMap<string, Reading>(UNITS_REMEMBERED);
function readingOf(text: string): Reading {
  let reading = readings.get(text);
  if (!reading) {
    reading = { units: questionUnits(text), passive: passiveVoice(text) };
    readings.set(text, reading);
  }
  return reading;
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
    swapped: changedRoles(restA, restB, links, [passiveA, passiveB]),
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
const HAN = /^\p{Script=Han}+$/u;
