/** The Embedder port: turns texts into vectors. One adapter per model host. */
import type { Scale } from "../../core/scale/scale";

export interface Embedder {
  /** Which adapter this is ("workers-ai", "local-http"), for /healthz. */
  readonly kind: string;
  /** The model id recorded with every stored vector. */
  readonly model: string;
  readonly dimensions: number;
  /** ISO 639-1 codes the model handles, or ["*"] for multilingual models. */
  readonly languages: readonly string[];
  /**
   * The similarity scale in force for this model (src/core/scale/scale.ts): the calibration that
   * maps raw cosine to the seeds' scale (null = raw), the repeat map and the decision thresholds.
   */
  readonly scale: Scale;
  /**
   * False when the model would give this text a meaningless vector (an English-only model maps
   * every Chinese character to one unknown token, so all Chinese sentences come out identical).
   * Such text is searched lexically only.
   */
  canEmbed(text: string): boolean;
  /** One vector per text, in order. Throws EmbeddingError when the model cannot be reached. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export class EmbeddingError extends Error {
  override name = "EmbeddingError";
}
