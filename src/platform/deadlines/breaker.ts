/**
 * A part outside the Worker that hangs (the embedding model, Vectorize, KV) must not hang the
 * request that needs it. Each call has a deadline, and a call that missed it while the part
 * answered no other call opens a per-isolate breaker that skips the part for a while, so the
 * requests after it do not each wait out their deadline. A part that answered another call
 * meanwhile is busy, not hung (a burst of requests queued on it): only the late call fails, and
 * the part stays in use. Callers take the failure as they take the part being down: search goes
 * on without it and says so in `degraded`; a write commits and is indexed later by the cron.
 */

/** The part missed its deadline, or is skipped because it just did. */
export class DeadlineMissed extends Error {
  override name = "DeadlineMissed";
  constructor(
    /** The part as messages name it: "the embedding model", "the vector index", "KV". */
    readonly part: string,
    message: string,
  ) {
    super(message);
  }
}

/** How long a missed deadline keeps a part skipped in this isolate. */
export const BREAKER_OPEN_MS = 15_000;

/** Per isolate: until when each part (by breaker key) is skipped. */
const skippedUntil = new Map<string, number>();
/**
 * Per isolate: how many calls each part has answered. A count, not a time: workerd's clock stands
 * still between I/O, so a call started "at the same time" as the last answer cannot be told apart
 * by Date.now().
 */
const answers = new Map<string, number>();

export interface Deadline {
  ms: number;
  /** Which breaker the calls share: the adapter, where it is, what it serves. */
  breakerKey: string;
  /** The part as messages name it ("the vector index"). */
  part: string;
  /** The error a miss throws (an embedder throws its own EmbeddingError kind); DeadlineMissed by default. */
  missed?: (message: string) => Error;
  now?: () => number;
}

/** `start()`'s answer, unless it takes longer than `ms` or the part is skipped: then the deadline's error. */
export async function withDeadline<T>(start: () => Promise<T>, deadline: Deadline): Promise<T> {
  const { ms, breakerKey, part, now = Date.now } = deadline;
  const missed = deadline.missed ?? ((message: string) => new DeadlineMissed(part, message));
  const until = skippedUntil.get(breakerKey) ?? 0;
  if (now() < until) throw missed(`${part} is skipped for ${Math.ceil((until - now()) / 1000)} s more: it missed a deadline`);
  const answersBefore = answers.get(breakerKey) ?? 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(missed(`${part} gave no answer within ${ms} ms`));
    }, ms);
  });
  const work = start();
  // An abandoned call may still fail later (the connection cut when the request ends): not an error of anyone's.
  work.catch(() => {});
  try {
    const answer = await Promise.race([work, late]);
    skippedUntil.delete(breakerKey);
    answers.set(breakerKey, (answers.get(breakerKey) ?? 0) + 1);
    return answer;
  } catch (error) {
    const answeredMeanwhile = (answers.get(breakerKey) ?? 0) > answersBefore;
    if (timedOut && !answeredMeanwhile) skippedUntil.set(breakerKey, now() + BREAKER_OPEN_MS);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a part is being skipped in this isolate now (for /healthz). */
export function isSkipped(breakerKey: string, now = Date.now()): boolean {
  return now < (skippedUntil.get(breakerKey) ?? 0);
}

/** Forgets every breaker of this isolate, as a new isolate starts (tests). */
export function forgetBreakers(): void {
  skippedUntil.clear();
  answers.clear();
}
