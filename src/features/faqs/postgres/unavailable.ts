/**
 * Faults of the Postgres store, told apart: the database being unreachable or slow (a refused or
 * dropped connection, a connect or query timeout, the server shutting down) is a
 * StoreUnavailableError (503 + Retry-After); an SQL error is a bug and stays a 500.
 */
import { StoreUnavailableError, type FaqStore } from "../port";

/** No store call waits longer than this, whatever the driver does (the connect + query timeouts are shorter). */
export const STORE_DEADLINE_MS = 8_000;

/** SQLSTATE classes that mean "the server is not there for you now": 08 connection, 53 resources, 57 operator intervention. */
const UNAVAILABLE_SQLSTATE = /^(08|53|57)/;

export function isUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_SQLSTATE.test(code);
  }
  // No SQLSTATE anywhere in the chain: the failure happened below SQL (socket, WebSocket, timeout).
  return error instanceof Error;
}

export interface GuardOptions {
  deadlineMs?: number | undefined;
  /** Told of every call (the pool is released only when they are done: services.ts PgHandle). */
  track?: <T>(work: Promise<T>) => Promise<T>;
}

/**
 * Calls bounded per statement only (the connect and query timeouts): an import embeds up to 1,000
 * FAQs with their variants and the cron's re-index a batch of 128 texts, longer than any deadline
 * a search should have.
 */
const UNBOUNDED = new Set<keyof FaqStore>(["import", "reindexPending"]);

/** Every store call, bounded: a hung database answers StoreUnavailableError at the deadline. */
export function guardUnavailable(
  store: FaqStore,
  { deadlineMs = STORE_DEADLINE_MS, track = <T>(work: Promise<T>) => work }: GuardOptions = {},
): FaqStore {
  const guarded = { backend: store.backend } as FaqStore;
  for (const key of Object.keys(store) as (keyof FaqStore)[]) {
    const method = store[key];
    if (typeof method !== "function") continue;
    const deadline = UNBOUNDED.has(key) ? Number.POSITIVE_INFINITY : deadlineMs;
    Object.assign(guarded, {
      [key]: (...args: unknown[]) => track(withDeadline((method as (...a: unknown[]) => Promise<unknown>).apply(store, args), deadline)),
    });
  }
  return guarded;
}

export async function withDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    if (Number.isFinite(deadlineMs))
      timer = setTimeout(() => reject(new StoreUnavailableError(`Postgres did not answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    if (isUnavailable(error)) throw new StoreUnavailableError("Postgres is unreachable", { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
