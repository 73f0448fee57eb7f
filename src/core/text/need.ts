/**
 * Information need or not: the one decision behind `isQuestion` in /v1/query/analyze, /v1/context
 * and the hook (a need is looked up among the user's past questions and remembered as one). A
 * need is a question with or without "?", a problem statement ("yarn build fails with ENOSPC"), a
 * request to explain or find ("walk me through the cache"), or a search title ("docker remove
 * dangling images"); not a need: chatter ("cool, thx", "👍"), a command to act ("push it", "could
 * you rerun the migration?"), pasted code or logs alone, a greeting.
 *
 * Seed 000's trivial rules are its floor (classify.ts: a slash command, fewer than three words,
 * an acknowledgment are never a need), and so is a prompt whose every word greets or reacts. Above it,
 * a logistic model gives P(need) from need-features.ts's evidence and every word of the prompt
 * (need-terms.ts: the words the features have no rule for), fitted on labelled prompts with
 * cross-validation, each set written by another hand held out in turn (`npm run fit:need`);
 * a prompt is "not a need" only below `notNeedBelow`, the level at which the held-out precision of
 * "not a need" reached 0.98: swallowing a question costs more than looking one up for nothing.
 */
import { sigmoid, termsLogit } from "../base/logistic-terms";
import modelTable from "./tables/need-model.json";
import { classifyQuery } from "./classify";
import { NEED_FEATURES, needFeatures } from "./need-features";
import { needTerms } from "./need-terms";

export interface NeedModel {
  /** One weight per NEED_FEATURES entry, in that order. */
  weights: number[];
  bias: number;
  /** A weight per word term (need-terms.ts); a term not listed weighs 0. */
  terms: Record<string, number>;
  /** Below this P(need) the prompt is not a need. */
  notNeedBelow: number;
}

export interface NeedDecision {
  need: boolean;
  /** P(need) from the model; 0 under the floor. */
  p: number;
}

const SHIPPED = parseNeedModel(modelTable);

export function informationNeed(prompt: string, model: NeedModel = SHIPPED): NeedDecision {
  if (classifyQuery(prompt).class === "trivial") return { need: false, p: 0 };
  const x = needFeatures(prompt);
  // Every word greets or reacts ("good morning!", "nice, that worked!", 辛苦了🙏): nothing is asked.
  if (x.greeting === 1 || x.chatter >= 1) return { need: false, p: 0 };
  const p = sigmoid(
    termsLogit(
      model,
      NEED_FEATURES.map((f) => x[f]),
      needTerms(prompt),
    ),
  );
  return { need: p >= model.notNeedBelow, p: Math.round(p * 1000) / 1000 };
}

/** Reads a model table (JSON written by `npm run fit:need`); throws when malformed. */
export function parseNeedModel(table: unknown): NeedModel {
  const t = table as Partial<NeedModel> | null;
  const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
  if (!t || !Array.isArray(t.weights) || t.weights.length !== NEED_FEATURES.length || !t.weights.every(finite) || !finite(t.bias))
    throw new Error(`need model: needs ${NEED_FEATURES.length} finite weights and a bias`);
  const terms = t.terms ?? {};
  if (typeof terms !== "object" || Array.isArray(terms) || !Object.values(terms).every(finite))
    throw new Error("need model: terms must map each term to a finite weight");
  if (!finite(t.notNeedBelow) || t.notNeedBelow < 0 || t.notNeedBelow > 1) throw new Error("need model: notNeedBelow must be in [0, 1]");
  return { weights: t.weights, bias: t.bias, terms, notNeedBelow: t.notNeedBelow };
}
