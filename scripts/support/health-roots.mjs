// Where a WordNet 3.1 noun names a health detail (scripts/build-health-terms.mjs and
// scripts/build-health-terms-world.mjs): the synsets below which it is a condition, an injury, a
// symptom, a disability, a medicine or a medical procedure, and each synset's distance below them.
import { synsets } from "./wordnet.mjs";

/** WordNet 3.1 noun synsets (offsets in data.noun) under which a word names a health detail. */
export const ROOTS = new Map([
  ["14075528", "ill health"],
  ["14093842", "disease"],
  ["14085287", "illness"],
  ["14075885", "disorder (physical)"],
  ["14228432", "pathology (deviation from health)"],
  ["14309164", "injury (to the body)"],
  ["07328236", "injury (an accident's)"],
  ["14323139", "symptom"],
  ["14571935", "disability"],
  ["14104857", "attack (of an illness)"],
  ["14556805", "hypersensitivity reaction"],
  ["03745652", "medicine, medication"],
  ["01026334", "medical procedure"],
  ["00662334", "therapy"],
]);

/** offset → its hypernyms' offsets (instances' too). */
const hypernyms = new Map(
  [...synsets("noun")].map((s) => [s.offset, s.pointers.filter((p) => p.symbol === "@" || p.symbol === "@i").map((p) => p.offset)]),
);
/** The roots of care (what an insurer covers, a pharmacy sells) rather than of a condition. */
export const CARE_ROOTS = new Set(["03745652", "01026334", "00662334"]);
const CONDITION_ROOTS = new Set([...ROOTS.keys()].filter((offset) => !CARE_ROOTS.has(offset)));
const memo = new Map();

/** Steps from a noun synset up to the nearest of `roots` (all by default), or Infinity when it lies under none. */
export function healthDepth(offset, roots = ROOTS, path = new Set()) {
  if (roots.has(offset)) return 0;
  const key = roots === ROOTS ? offset : `${offset}/${[...roots].join()}`;
  if (memo.has(key)) return memo.get(key);
  if (path.has(offset)) return Infinity;
  path.add(offset);
  const d = 1 + Math.min(Infinity, ...(hypernyms.get(offset) ?? []).map((up) => healthDepth(up, roots, path)));
  memo.set(key, d);
  return d;
}

/** Steps below a condition's root (a disease, an injury, a symptom…), or Infinity. */
export const conditionDepth = (offset) => healthDepth(offset, CONDITION_ROOTS);
