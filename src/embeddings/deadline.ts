/**
 * An embedding model that hangs must not hang the request that needs it: each call has a deadline,
 * and a call that missed it while the model answered no other call opens a per-isolate breaker
 * that skips the model for a while, so the requests after it do not each wait out their deadline.
 * A model that answered another call meanwhile is busy, not hung (a burst of requests queued on
 * it): only the late call fails, and the model stays in use. Either way the call throws an
 * EmbeddingError, which every caller already takes as "no vectors": search goes on by keywords,
 * the context block without its vector list, the show's check on words, a write commits with its
 * vector pending (the cron indexes it later), each saying so in `degraded`. KV-cached vectors are
 * read before this (cached.ts), so a known text never waits on the model.
 */
import { type Embedder, EmbeddingError } from "./port";

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
/** How long a missed deadline keeps the model skipped in this isolate. */
export const BREAKER_OPEN_MS = 15_000;

/** The deadline of one call embedding `texts` texts. */
export function embedDeadlineMs(baseMs: number, texts: number): number {
  return baseMs + EMBED_DEADLINE_PER_TEXT_MS * Math.max(0, texts - 1);
}

export class EmbeddingTimeout extends EmbeddingError {
  override name = "EmbeddingTimeout";
}

/** Per isolate: until when each model (by breaker key) is skipped. */
const skippedUntil = new Map<string, number>();
/** Per isolate: when each model last answered a call. */
const answeredAt = new Map<string, number>();

export interface DeadlineOptions {
  /** For a call of one text; longer by EMBED_DEADLINE_PER_TEXT_MS per text after it. */
  deadlineMs: number;
  /** Which breaker the calls share: the adapter, its address and model. */
  breakerKey: string;
  now?: () => number;
}

export function deadlineEmbedder(inner: Embedder, { deadlineMs, breakerKey, now = Date.now }: DeadlineOptions): Embedder {
  return {
    kind: inner.kind,
    model: inner.model,
    dimensions: inner.dimensions,
    languages: inner.languages,
    scale: inner.scale,
    canEmbed: (text) => inner.canEmbed(text),
    async embed(texts) {
      const until = skippedUntil.get(breakerKey) ?? 0;
      if (now() < until)
        throw new EmbeddingTimeout(`the embedding model is skipped for ${Math.ceil((until - now()) / 1000)} s more: it missed a deadline`);
      const ms = embedDeadlineMs(deadlineMs, texts.length);
      const startedAt = now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new EmbeddingTimeout(`the embedding model gave no answer within ${ms} ms`)), ms);
      });
      const work = inner.embed(texts);
      // An abandoned call may still fail later (the connection cut when the request ends): not an error of anyone's.
      work.catch(() => {});
      try {
        const vectors = await Promise.race([work, deadline]);
        skippedUntil.delete(breakerKey);
        answeredAt.set(breakerKey, now());
        return vectors;
      } catch (error) {
        const answeredMeanwhile = (answeredAt.get(breakerKey) ?? -Infinity) >= startedAt;
        if (error instanceof EmbeddingTimeout && !answeredMeanwhile) skippedUntil.set(breakerKey, now() + BREAKER_OPEN_MS);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Whether the model is being skipped in this isolate now (for /healthz). */
export function embedderSkipped(breakerKey: string, now = Date.now()): boolean {
  return now < (skippedUntil.get(breakerKey) ?? 0);
}
