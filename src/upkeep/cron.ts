/**
 * Cron jobs, keyed by the schedules in wrangler.toml. Each job is bounded (a batch per run) and
 * idempotent, so an overlapping or repeated run does no harm.
 */
import { reindexPendingFaqs } from "../faqs/indexing";
import { pruneFaqVersions } from "../faqs/versions";
import { reindexPendingMemories } from "../memories/indexing";
import { pruneLatencySamples } from "../metrics/counters";
import type { Services } from "../services";
import { pruneDeliveries } from "../helpdesk/deliveries";
import { pruneEndedSecrets, sealPendingSecrets } from "../tickets/secrets";
import { resendStrandedTickets } from "../tickets/sweep";
import { pruneRecentVectors } from "../vectors/read-your-writes";
import { pruneShowArchive } from "../shows/archive";
import { pruneExpiredKeys } from "../idempotency/store";

export const REINDEX_CRON = "*/5 * * * *";
export const RETENTION_CRON = "17 3 * * *";

type Job = (services: Services) => Promise<Record<string, unknown>>;

const jobs: Record<string, Record<string, Job>> = {
  [REINDEX_CRON]: {
    reindexMemories: reindexPendingMemories,
    reindexFaqs: reindexPendingFaqs,
    pruneRecentVectors: (s) => pruneRecentVectors(s.db, s.clock.now()),
    resendStrandedTickets: (s) => resendStrandedTickets(s.db, s.ticketQueue, s.clock.now()),
    sealWebhookSecrets: async (s) => sealPendingSecrets(s.db, await s.secretBox()),
    pruneWebhookSecrets: (s) => pruneEndedSecrets(s.db, s.clock.now()),
    pruneIdempotencyKeys: (s) => pruneExpiredKeys(s.db, s.clock.now()),
  },
  [RETENTION_CRON]: {
    showArchive: pruneShowArchive,
    faqVersions: pruneFaqVersions,
    latencySamples: (s) => pruneLatencySamples(s.db, s.clock.now()),
    webhookDeliveries: (s) => pruneDeliveries(s.db, s.clock.now()),
  },
};

export async function runCron(cron: string, services: Services): Promise<Record<string, unknown>> {
  const scheduled = jobs[cron];
  if (!scheduled) {
    console.warn(JSON.stringify({ event: "cron_unknown", cron }));
    return {};
  }
  const report: Record<string, unknown> = {};
  for (const [name, job] of Object.entries(scheduled)) {
    try {
      report[name] = await job(services);
    } catch (error) {
      report[name] = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  console.log(JSON.stringify({ event: "cron_done", cron, report }));
  return report;
}
