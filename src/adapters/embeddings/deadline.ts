/**
 * The embedding model's deadlines (the breaker is src/platform/deadlines/breaker.ts). A miss throws an
 * EmbeddingError, which every caller already takes as "no vectors": search goes on by keywords,
 * the context block without its vector list, the show's check on words, a write commits with its
 * vector pending (the cron indexes it later), each saying so in `degraded`. KV-cached vectors are
 * read before this (cached.ts), so a known text never waits on the model.
 */
import { withDeadline } from "../../platform/deadlines/breaker";
import { type Embedder, EmbeddingError } from "../../platform/ports/embedder";

/** A request's embedding call of one text: the whole request should answer within ~1.5 s with the model hung. */
export const REQUEST_EMBED_DEADLINE_MS = 1_000;
/**
 * The same for the local model (npm start, tests): a CPU model sharing the machine's cores with
 * the Worker, which serves one call at a time, so a burst of 100 requests queues on it for seconds.
 */
export const LOCAL_REQUEST_EMBED_DEADLINE_MS = 5_000;
/** A job's (the cron's re-index, the ticket consumer's): nobody waits. */
export const JOB_EMBED_DEADLINE_MS = 15_000;
/**
 * Added per text after the first: a batch (an import's 64 texts) is slow, not hung. The slowest
 * model Recall runs, the local one on a busy 2-core machine, takes ~110 ms a long text.
 */
export const EMBED_DEADLINE_PER_TEXT_MS = 250;

/** The deadline of one call embedding `texts` texts. */
export function embedDeadlineMs(baseMs: number, texts: number): number {
  return baseMs + EMBED_DEADLINE_PER_TEXT_MS * Math.max(0, texts - 1);
}

export class EmbeddingTimeout extends EmbeddingError {
  override name = "EmbeddingTimeout";
}

export interface DeadlineOptions {
  /** For a call of one text; longer by EMBED_DEADLINE_PER_TEXT_MS per text after it. */
  deadlineMs: number;
  /** Which breaker the calls share: the adapter, its address and model. */
  breakerKey: string;
  now?: () => number;
}

/** The model behind a deadline and a breaker (src/platform/deadlines/breaker.ts); a miss throws EmbeddingTimeout, an EmbeddingError. */
export function deadlineEmbedder(inner: Embedder, { deadlineMs, breakerKey, now }: DeadlineOptions): Embedder {
  return {
    kind: inner.kind,
    model: inner.model,
    dimensions: inner.dimensions,
    languages: inner.languages,
    scale: inner.scale,
    canEmbed: (text) => inner.canEmbed(text),
    embed: (texts) =>
      withDeadline(() => inner.embed(texts), {
        ms: embedDeadlineMs(deadlineMs, texts.length),
        breakerKey,
        part: "the embedding model",
        missed: (message) => new EmbeddingTimeout(message),
        ...(now ? { now } : {}),
      }),
  };
}
