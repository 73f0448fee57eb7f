/**
 * The same words in other roles: who does what to whom, read from where the words stand once two
 * questions are aligned (align.ts). Each reading names the two words whose roles changed; the
 * contrast a person reads is "… and … change places" (contrasts.ts).
 */
import { englishLexicon } from "../text/lemma";
import type { Unit } from "./units";

/** Two units the alignment matched (align.ts's Link, its kind aside). */
interface Link {
  a: Unit;
  b: Unit;
}

/** The first role change found, or null: `restA` / `restB` are each side's units but the frame. */
export function changedRoles(
  restA: readonly Unit[],
  restB: readonly Unit[],
  links: readonly Link[],
  [passiveA, passiveB]: readonly [boolean, boolean],
): [string, string] | null {
  return (
    swappedPair(restA, restB) ??
    swappedPair(restA.filter(isWord), restB.filter(isWord)) ??
    directionSwapped(restA, restB) ??
    modifierSwapped(restA, restB) ??
    countedSwapped(restA, restB) ??
    negationMoved(restA, restB, links) ??
    (passiveA === passiveB ? pivotSwapped(links) : agentMoved(passiveA ? restA : restB, passiveA ? links : links.map(flip)))
  );
}

export const isWord = (u: Unit) => u.kind === "content" || u.kind === "number";

/**
 * The same units in the same order but two that changed places around a word between them (both
 * sides otherwise equal): their roles changed. Also read on the words alone, since a small word
 * may go with one of them ("commits on my branch but not on main" / "on main but not on my
 * branch"). Two neighbours that change places are a reordering ("where is the invoice sent" /
 * "where do you send the invoice").
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
  for (const [key, objectA] of oa) {
    const objectB = ob.get(key);
    if (objectA && objectB && objectA.key !== objectB.key && words(a) === words(b)) return [objectA.text, objectB.text];
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
  return attachedElsewhere(a, b, qualifiers);
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
  return attachedElsewhere(a, b, counted);
}

/**
 * The same word attached to another on each side (a head's qualifier, a number's noun), both
 * attached words said on both sides: they changed places.
 */
function attachedElsewhere(
  a: readonly Unit[],
  b: readonly Unit[],
  attached: (units: readonly Unit[]) => ReadonlyMap<string, Unit>,
): [string, string] | null {
  const keysA = new Set(a.map((u) => u.key));
  const keysB = new Set(b.map((u) => u.key));
  const onB = attached(b);
  for (const [key, x] of attached(a)) {
    const y = onB.get(key);
    if (y && y.key !== x.key && keysB.has(x.key) && keysA.has(y.key)) return [x.text, y.text];
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

const flip = (l: Link): Link => ({ a: l.b, b: l.a });

/** The linked words that carry roles, in a's order: content words, numbers, persons and owners ("my friend sent me"). */
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

const FROM = "preposition:from";
const BY = "preposition:by";
const TO = "preposition:to";
