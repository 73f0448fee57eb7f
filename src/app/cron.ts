/**
 * Cron jobs, keyed by the schedules in wrangler.toml. Each job is bounded (a batch per run) and
 * idempotent, so an overlapping or repeated run does no harm.
 */
import { advanceRunningFits, refitWhenLabelsGrew } from "../features/self-fit/cron";
import { judgeDuplicatesAllTenants } from "../features/faqs/duplicates-judged";
import { linkReindexed } from "../features/faqs/import-links";
import { faqStore } from "../features/faqs/select";
import { reindexPendingMemories } from "../features/memories/indexing";
import { pruneLatencySamples } from "../platform/observe/counters";
import { errorCodeOf, errorFields } from "../platform/observe/log";
import type { Services } from "../platform/ports/services";
import { pruneDeliveries } from "../features/helpdesk/deliveries";
import { pruneEndedSecrets, sealPendingSecrets } from "../features/tickets/secrets";
import { pipelineStore, webhookAuthDb } from "../features/tickets/select";
import { recleanAllTenants } from "../features/tickets/reclean";
import { resendStrandedTickets } from "../features/tickets/sweep";
import { pruneRecentVectors } from "../adapters/vectors/read-your-writes";
import { pruneShowArchive } from "../features/shows/archive";
import { pruneExpiredKeys } from "../features/idempotency/store";

export const REINDEX_CRON = "*/5 * * * *";
export const RETENTION_CRON = "17 3 * * *";

type Job = (services: Services) => Promise<Record<string, unknown>>;

const jobs: Record<string, Record<string, Job>> = {
  [REINDEX_CRON]: {
    reindexMemories: reindexPendingMemories,
    reindexFaqs: async (s) => {
      const store = faqStore(s);
      const { faqs, ...report } = await store.reindexPending();
      return { ...report, linked: await linkReindexed(store, faqs) };
    },
    pruneRecentVectors: (s) => pruneRecentVectors(s.db, s.clock.now()),
    resendStrandedTickets: (s) => resendStrandedTickets(pipelineStore(s), s.ticketQueue, s.clock.now()),
    sealWebhookSecrets: async (s) => sealPendingSecrets(webhookAuthDb(s), await s.secretBox()),
    pruneWebhookSecrets: (s) => pruneEndedSecrets(webhookAuthDb(s), s.clock.now()),
    pruneIdempotencyKeys: (s) => pruneExpiredKeys(s.db, s.clock.now()),
    calibrationFits: advanceRunningFits,
  },
  [RETENTION_CRON]: {
    showArchive: pruneShowArchive,
    faqVersions: (s) => faqStore(s).pruneVersions(s.clock.now()),
    latencySamples: (s) => pruneLatencySamples(s.db, s.clock.now()),
    webhookDeliveries: (s) => pruneDeliveries(webhookAuthDb(s), s.clock.now()),
    calibrationRefits: refitWhenLabelsGrew,
    ticketTextRecleaned: recleanAllTenants,
    duplicatesJudged: judgeDuplicatesAllTenants,
  },
};

/** Runs every job of a schedule; one failing job is logged and reported, the others still run. */
export async function runCron(cron: string, services: Services): Promise<Record<string, unknown>> {
  const log = services.log.with({ job: "cron", cron, runId: crypto.randomUUID() });
  const scheduled = jobs[cron];
  if (!scheduled) {
    log.warn("cron_unknown");
    return {};
  }
  const report: Record<string, unknown> = {};
  const started = performance.now();
  for (const [name, job] of Object.entries(scheduled)) {
    const jobStarted = performance.now();
    const jobLog = log.with({ task: name });
    try {
      report[name] = await job({ ...services, log: jobLog });
      jobLog.info("cron_task_done", { durationMs: elapsed(jobStarted), result: report[name] });
    } catch (error) {
      report[name] = { error: error instanceof Error ? error.message : String(error) };
      jobLog.error("cron_task_failed", {
        durationMs: elapsed(jobStarted),
        errorCode: errorCodeOf(error),
        ...errorFields(error, { stack: true }),
      });
    }
  }
  log.info("cron_done", { durationMs: elapsed(started), report });
  return report;
}

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;
