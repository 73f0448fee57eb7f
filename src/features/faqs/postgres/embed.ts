/** Embedding for the Postgres adapter: its writes (store.ts, import.ts) and the cron's re-index (reindex.ts) share it. */
import { errorFields } from "../../../platform/observe/log";
import type { Services } from "../../../platform/ports/services";

/** Vectors for the texts, or null when the embedder failed (the rows are then committed 'pending'). */
export async function embedAll(services: Services, texts: readonly string[]): Promise<number[][] | null> {
  if (texts.length === 0) return [];
  try {
    return (await services.embedder.embed(texts)).map((v) => Array.from(v));
  } catch (error) {
    services.log.warn("faq_embed_failed", { backend: "postgres", ...errorFields(error) });
    return null;
  }
}
