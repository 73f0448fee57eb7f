/**
 * Per-show novelty settings (seed 004, "Context Memory Config") and the fixed constants of the
 * ranking pipeline. Every threshold compares CALIBRATED similarity (src/core/calibration/), so the
 * seed's numbers mean the same thing on any embedding model.
 */

export interface NoveltyConfig {
  /** Consult and feed the show's memory; when false, ranking is batch dedupe + voting + top-N only. */
  enabled: boolean;
  /** Questions kept in the active window (the newest; older ones stay stored until retention). */
  maxCacheSize: number;
  /** Block a candidate whose similarity to a question of the last 30 min is above this. */
  similarityThreshold: number;
  /** Penalize (score × 0.7) a candidate whose similarity to a question of the last 30 min is at least this. */
  penaltySimilarityThreshold: number;
  /** Boost (score × 1.1) a candidate whose similarity to every question in the window is below this. */
  noveltyBoostThreshold: number;
  /**
   * The time constant τ of the decay e^(−t/τ), in minutes. The seed calls its 30 a "half-life"
   * but computes e^(−t/30) and prints that function's table (5 min → 0.85, 30 min → 0.37), so
   * τ is an e-folding time; the actual half-life is τ·ln 2 ≈ 20.8 min. We implement the seed's
   * table and name the parameter for what it is.
   */
  decayTimeConstantMinutes: number;
  /** Questions older than this are deleted by the show's daily alarm. */
  retentionDays: number;
}

export const DEFAULT_ENABLED = true;
export const DEFAULT_MAX_CACHE_SIZE = 100;
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;
export const DEFAULT_PENALTY_SIMILARITY_THRESHOLD = 0.7;
export const DEFAULT_NOVELTY_BOOST_THRESHOLD = 0.6;
export const DEFAULT_DECAY_TIME_CONSTANT_MINUTES = 30;
export const DEFAULT_RETENTION_DAYS = 30;

export const DEFAULT_NOVELTY_CONFIG: Readonly<NoveltyConfig> = Object.freeze({
  enabled: DEFAULT_ENABLED,
  maxCacheSize: DEFAULT_MAX_CACHE_SIZE,
  similarityThreshold: DEFAULT_SIMILARITY_THRESHOLD,
  penaltySimilarityThreshold: DEFAULT_PENALTY_SIMILARITY_THRESHOLD,
  noveltyBoostThreshold: DEFAULT_NOVELTY_BOOST_THRESHOLD,
  decayTimeConstantMinutes: DEFAULT_DECAY_TIME_CONSTANT_MINUTES,
  retentionDays: DEFAULT_RETENTION_DAYS,
});

/** Allowed ranges, shared by the HTTP validation and the Durable Object's own check. */
export const NOVELTY_CONFIG_LIMITS = {
  maxCacheSize: { min: 1, max: 1000 },
  similarityThreshold: { min: 0, max: 1 },
  penaltySimilarityThreshold: { min: 0, max: 1 },
  noveltyBoostThreshold: { min: 0, max: 1 },
  decayTimeConstantMinutes: { min: 1, max: 24 * 60 },
  retentionDays: { min: 1, max: 365 },
} as const;

/** Problems with a whole config (ranges and order of the three thresholds); empty when valid. */
export function configProblems(config: NoveltyConfig): string[] {
  const problems: string[] = [];
  for (const [key, { min, max }] of Object.entries(NOVELTY_CONFIG_LIMITS)) {
    const value = config[key as keyof typeof NOVELTY_CONFIG_LIMITS];
    if (!Number.isFinite(value) || value < min || value > max) problems.push(`${key} must be in [${min}, ${max}]`);
  }
  if (!Number.isInteger(config.maxCacheSize)) problems.push("maxCacheSize must be an integer");
  if (!(config.noveltyBoostThreshold <= config.penaltySimilarityThreshold)) {
    problems.push("noveltyBoostThreshold must be ≤ penaltySimilarityThreshold");
  }
  if (!(config.penaltySimilarityThreshold <= config.similarityThreshold)) {
    problems.push("penaltySimilarityThreshold must be ≤ similarityThreshold");
  }
  return problems;
}

// ---- Fixed pipeline constants (seed 004 where it gives a number; ours, documented, where it does not)

/** Seed: "remove 85%+ similar within batch". */
export const BATCH_DUPLICATE_THRESHOLD = 0.85;
/** Seed: block/penalize against "past questions from last 30 min". */
export const HISTORY_WINDOW_MINUTES = 30;
/** Seed: "reduce score by 30%". */
export const PENALTY_FACTOR = 0.7;
/** Ours: the seed boosts novel questions without a number; +10 %. */
export const NOVELTY_BOOST_FACTOR = 1.1;
/** Seed: +0.1 when the average similarity to the last 30 min is below 0.4. */
export const EXPLORATION_BONUS = 0.1;
export const EXPLORATION_AVERAGE_THRESHOLD = 0.4;
/**
 * Ours (seed: "host can mark questions as used for stronger filtering"): similarity to a question
 * the host actually asked counts × 1.15 (capped at 1), and such a question blocks at any age in the
 * window, not only in the last 30 min. So a 0.70 paraphrase of a used question counts 0.805: blocked.
 */
export const USED_SIMILARITY_FACTOR = 1.15;
/**
 * Ours (seed Phase 2: "Cross-Model Voting"): another model's candidate in the same batch with
 * similarity ≥ 0.70 to this one is a vote for the idea; each distinct other model adds +10 % to
 * the score, at most 2 models (+20 %). A model never votes for itself.
 */
export const VOTE_AGREEMENT_THRESHOLD = 0.7;
export const VOTE_BONUS_PER_MODEL = 0.1;
export const VOTE_MAX_MODELS = 2;
/** Ours: final score = quality × (1 − w + w × novelty), w = 0.5: a fully stale idea keeps half its score. */
export const NOVELTY_WEIGHT = 0.5;
/**
 * Ours (seed: "Diversity: difference from other candidates"): picks are chosen greedily; each
 * remaining candidate's score is scaled by (1 − 0.3 × its highest similarity to a pick already made).
 */
export const DIVERSITY_WEIGHT = 0.3;
