/**
 * Fits a scale on a tenant's measured pairs: the calibration's monotone map (fit.ts, the same
 * method as `npm run calibrate`) and the same-question decision's thresholds (src/core/decisions/fit.ts,
 * as `npm run decisions`), both cross-validated by question group, with bootstrap intervals. Pure:
 * no I/O.
 *
 * Safe by construction: a fit is refused, with the reason, when a band has too few pairs, when the
 * map is not monotone, when it agrees with the labels worse on held-out pairs (beyond noise) than
 * the baseline does — the scale the scope has without a fit of its own (the deployment's, the
 * shipped table or raw cosine) — or when its automatic `same` is clearly less precise than the target.
 */
import type { Band } from "../../core/calibration/bands";
import { calibrate, parseCalibration } from "../../core/calibration/calibration";
import { agreement, type Agreement, applyKnots, auc, bootstrap, fitKnots, foldOf, type Knot, round } from "../../core/calibration/fit";
import type { Scale, ScaleSource } from "../../core/scale/scale";
import { findContrasts } from "../../core/decisions/contrasts";
import { actionMetrics, type DecisionPair, fitThresholds, TARGET_PRECISION } from "../../core/decisions/fit";
import { UNFITTED } from "../../core/decisions/same-question";
import { lexicalSimilarity, lexicalTerms } from "../../core/ranking/lexical";
import { lexicalEvidence, repeatSimilarity } from "../../core/ranking/repeat";
import type { StoredTables } from "../calibration/tables-store";

export interface MeasuredPair {
  source: string;
  group: string;
  label: Band;
  a: string;
  b: string;
  raw: number;
}

/** Fewer pairs than this labelled the same question, or unrelated, and no fit is tried. */
export const MIN_PAIRS_PER_BAND = 30;
export const FOLDS = 5;
const BOOTSTRAP_SAMPLES = 200;

/** The seeds' lines on the calibrated scale, and what each decides. */
export const SEED_LINES = [
  { line: 0.95, use: "pipeline SKIP (duplicate)" },
  { line: 0.85, use: "pipeline ADD_VARIANT; show batch duplicate" },
  { line: 0.8, use: "show blocks a repeat" },
  { line: 0.7, use: "pipeline asks the judge; show penalty" },
  { line: 0.6, use: "show boost below; similar questions and related FAQs above" },
] as const;

type Interval = [number, number];
interface Rate {
  value: number;
  interval: Interval;
}

export interface FitReport {
  model: string;
  pairs: number;
  bySource: Record<string, Partial<Record<Band, number>>>;
  /** The scale the fit was compared with: the one the scope has without a fit of its own. */
  baseline: ScaleSource;
  folds: number;
  /** Raw cosine, the same question against the rest (a monotone map does not change it). */
  auc?: Rate;
  agreement?: { baseline: Agreement; crossValidated: Agreement; inSample: Agreement };
  /** Held-out macro agreement minus the baseline's, with its interval: below zero beyond noise, the fit is refused. */
  agreementGain?: Rate;
  /** "sim ≥ line ⇒ the same question", held out, for the self-fit and for the baseline. */
  lines?: { line: number; use: string; selfFit: { precision: Rate; recall: Rate }; baseline: { precision: number; recall: number } }[];
  decision?: {
    sameMin: number;
    sharedMin: number;
    relatedMin: number;
    crossValidated: { precision: Rate; recall: Rate; automatic: number };
  };
  knots?: Knot[];
}

export type FitOutcome = { stored: true; tables: StoredTables; report: FitReport } | { stored: false; reason: string; report: FitReport };

interface Scored extends MeasuredPair, DecisionPair {
  lex: number;
}

export function fitScale(pairs: readonly MeasuredPair[], baseline: Scale): FitOutcome {
  const report: FitReport = {
    model: baseline.model,
    pairs: pairs.length,
    bySource: countBySource(pairs),
    baseline: baseline.source,
    folds: FOLDS,
  };
  const count = (label: Band) => pairs.filter((p) => p.label === label).length;
  for (const label of ["paraphrase", "unrelated"] as const) {
    if (count(label) < MIN_PAIRS_PER_BAND)
      return refuse(
        `too few pairs labelled ${label} (${count(label)} < ${MIN_PAIRS_PER_BAND}): add variants to FAQs, review staged items or upload pairs`,
        report,
      );
  }
  const knots = fitKnots(pairs, { references: false }).knots;
  const fittedOn = `self-fit on ${pairs.length} pairs (${Object.entries(report.bySource)
    .map(([s, c]) => `${s} ${Object.values(c).reduce((a, b) => a + b, 0)}`)
    .join(", ")})`;
  let calibration;
  try {
    calibration = parseCalibration({ model: baseline.model, method: "isotonic-anchors (self-fit)", fittedOn, knots });
  } catch (error) {
    return refuse(`the fitted map is not usable: ${error instanceof Error ? error.message : String(error)}`, report);
  }
  report.knots = knots;

  // Held out: each fold's pairs on the map fitted without them (folds by question group).
  const foldKnots = Array.from({ length: FOLDS }, (_, f) => {
    const training = pairs.filter((p) => foldOf(p.group, FOLDS) !== f);
    const fits = training.some((p) => p.label === "paraphrase") && training.some((p) => p.label === "unrelated");
    return fits ? fitKnots(training, { references: false }).knots : knots;
  });
  const heldOut = new Map(pairs.map((p) => [p, applyKnots(p.raw, foldKnots[foldOf(p.group, FOLDS)]!)]));
  const baselineSimilarity = (p: MeasuredPair) => calibrate(p.raw, baseline.calibration);
  report.agreement = {
    baseline: agreement(pairs, baselineSimilarity),
    crossValidated: agreement(pairs, (p) => heldOut.get(p)!),
    inSample: agreement(pairs, (p) => calibrate(p.raw, calibration)),
  };
  const same = (p: { label: Band }) => (p.label === "paraphrase" ? 1 : 0);
  const rate = (statistic: (sample: MeasuredPair[]) => number) => rateOver(pairs, statistic);
  report.auc = rate((sample) =>
    auc(
      sample.map((p) => ({ y: same(p), raw: p.raw })),
      (p) => p.raw,
    ),
  );
  report.lines = SEED_LINES.map(({ line, use }) => {
    const at = (similarity: (p: MeasuredPair) => number) => (sample: MeasuredPair[]) =>
      actionMetrics(
        sample.map((p) => ({ y: same(p), s: similarity(p) })),
        (p) => p.s >= line,
      );
    const selfFit = at((p) => heldOut.get(p)!);
    const current = at(baselineSimilarity)(pairs as MeasuredPair[]);
    return {
      line,
      use,
      selfFit: { precision: rate((s) => selfFit(s).precision), recall: rate((s) => selfFit(s).recall) },
      baseline: { precision: round(current.precision), recall: round(current.recall) },
    };
  });
  // Worse beyond noise: the 95 % interval of (held-out agreement − the baseline's), over
  // question groups, lies below zero. A fit within noise of the baseline may replace it.
  const gain = rate((s) => agreement(s, (p) => heldOut.get(p)!).macro - agreement(s, baselineSimilarity).macro);
  report.agreementGain = gain;
  if (gain.interval[1] < 0) {
    return refuse(
      `it does worse on held-out pairs than the scale it would replace (band agreement ${report.agreement.crossValidated.macro} vs ${report.agreement.baseline.macro}; difference ${gain.value}, 95 % interval ${gain.interval[0]}..${gain.interval[1]})`,
      report,
    );
  }

  // The same-question decision's thresholds, on the score each fold's map gives.
  const base = pairs.map((p) => decisionPair(p));
  const scoreOn = (knotsOf: Knot[]) => {
    const c = { model: baseline.model, method: "", fittedOn: "", knots: knotsOf };
    return (p: Scored): Scored => ({ ...p, score: repeatSimilarity(p.raw, p.lex, baseline.repeat, c) });
  };
  // Every pair is in the tenant's own domain; the shared-words line is the model-independent one
  // fitted offline on the broad labelled sets (a knowledge base's rewordings share few words with
  // their FAQ and with its neighbours alike, so they cannot place it).
  const fitOptions = { domains: () => true, sharedMin: baseline.decision?.embedding.sharedMin ?? UNFITTED.embedding.sharedMin };
  const acted = new Map<Scored, boolean>();
  for (let f = 0; f < FOLDS; f++) {
    const score = scoreOn(foldKnots[f]!);
    const t = fitThresholds(base.filter((p) => foldOf(p.group, FOLDS) !== f).map(score), fitOptions);
    for (const p of base.filter((q) => foldOf(q.group, FOLDS) === f)) {
      const s = score(p);
      acted.set(p, s.contrasts === 0 && s.score >= t.sameMin && s.shared >= t.sharedMin);
    }
  }
  const thresholds = fitThresholds(base.map(scoreOn(knots)), fitOptions);
  const decided = (sample: Scored[]) => actionMetrics(sample, (p) => acted.get(p)!);
  const decisionRate = (statistic: (sample: Scored[]) => number) => rateOver(base, statistic);
  const precision = decisionRate((s) => decided(s).precision);
  report.decision = {
    sameMin: thresholds.sameMin,
    sharedMin: thresholds.sharedMin,
    relatedMin: thresholds.relatedMin,
    crossValidated: { precision, recall: decisionRate((s) => decided(s).recall), automatic: round(decided(base).automatic) },
  };
  if (precision.interval[1] < TARGET_PRECISION) {
    return refuse(
      `its automatic "same question" is less precise on held-out pairs than the ${TARGET_PRECISION} target (${precision.value}, 95 % interval up to ${precision.interval[1]})`,
      report,
    );
  }
  return { stored: true, tables: { calibration: { method: calibration.method, fittedOn, knots }, decision: thresholds }, report };
}

/** A statistic over the pairs, with its 95 % bootstrap interval over question groups. */
function rateOver<P extends { group: string }>(pairs: readonly P[], statistic: (sample: P[]) => number): Rate {
  return {
    value: round(statistic([...pairs])),
    interval: bootstrap(pairs, statistic, { samples: BOOTSTRAP_SAMPLES, group: (p) => p.group }).map(round) as Interval,
  };
}

function decisionPair(p: MeasuredPair): Scored {
  const termsA = lexicalTerms(p.a);
  const termsB = lexicalTerms(p.b);
  return {
    ...p,
    set: p.source,
    y: p.label === "paraphrase" ? 1 : 0,
    relation: p.label === "paraphrase" ? "same" : p.label,
    shared: lexicalSimilarity(termsA, termsB),
    lex: lexicalEvidence(termsA, termsB),
    contrasts: findContrasts(p.a, p.b).length,
    score: 0,
  };
}

function countBySource(pairs: readonly MeasuredPair[]): FitReport["bySource"] {
  const out: FitReport["bySource"] = {};
  for (const p of pairs) {
    const of = (out[p.source] ??= {});
    of[p.label] = (of[p.label] ?? 0) + 1;
  }
  return out;
}

function refuse(reason: string, report: FitReport): FitOutcome {
  return { stored: false, reason, report };
}
