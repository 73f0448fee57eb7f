/**
 * The pipeline store on Postgres, bounded as the FAQ store is (src/features/faqs/postgres/unavailable.ts):
 * every call answers within the deadline, and an unreachable or slow database comes out as
 * StoreUnavailableError (503 + Retry-After on the routes, a retry in the consumer, a
 * queue-carried ticket at intake).
 */
import { STORE_DEADLINE_MS, withDeadline } from "../../faqs/postgres/unavailable";
import type { PipelineStore } from "../port";

export function guardPipelineStore(
  store: PipelineStore,
  {
    deadlineMs = STORE_DEADLINE_MS,
    track = <T>(work: Promise<T>) => work,
  }: { deadlineMs?: number; track?: <T>(work: Promise<T>) => Promise<T> } = {},
): PipelineStore {
  const guarded = { backend: store.backend } as PipelineStore;
  for (const key of Object.keys(store) as (keyof PipelineStore)[]) {
    const method = store[key];
    if (typeof method !== "function") continue;
    Object.assign(guarded, {
      [key]: (...args: unknown[]) => track(withDeadline((method as (...a: unknown[]) => Promise<unknown>).apply(store, args), deadlineMs)),
    });
  }
  return guarded;
}
