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
import { type Services, servicesIn } from "../platform/ports/services";
import { HOME_DATABASE } from "../platform/db/databases";
import { databasesInMoves } from "../features/placement/move";
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

/**
 * Where a job runs (docs/design/tenant-placement.md): `each` once per database, on the tenants placed in it; `home` once, on
 * the home database's own tables (webhook authentication, calibration fits, which reach their tenant's database themselves).
 */
interface Scheduled {
  where: "each" | "home";
  run: Job;
}

const each = (run: Job): Scheduled => ({ where: "each", run });
const home = (run: Job): Scheduled => ({ where: "home", run });

const jobs: Record<string, Record<string, Scheduled>> = {
  [REINDEX_CRON]: {
    reindexMemories: each(reindexPendingMemories),
    reindexFaqs: each(async (s) => {
      const store = faqStore(s);
      const { faqs, ...report } = await store.reindexPending();
      return { ...report, linked: await linkReindexed(store, faqs) };
    }),
    pruneRecentVectors: each((s) => pruneRecentVectors(s.db, s.clock.now())),
    resendStrandedTickets: each((s) => resendStrandedTickets(pipelineStore(s), s.ticketQueue, s.clock.now())),
    sealWebhookSecrets: home(async (s) => sealPendingSecrets(webhookAuthDb(s), await s.secretBox())),
    pruneWebhookSecrets: home((s) => pruneEndedSecrets(webhookAuthDb(s), s.clock.now())),
    pruneIdempotencyKeys: each((s) => pruneExpiredKeys(s.db, s.clock.now())),
    calibrationFits: home(advanceRunningFits),
  },
  [RETENTION_CRON]: {
    showArchive: each(pruneShowArchive),
    faqVersions: each((s) => faqStore(s).pruneVersions(s.clock.now())),
    latencySamples: each((s) => pruneLatencySamples(s.db, s.clock.now())),
    webhookDeliveries: home((s) => pruneDeliveries(webhookAuthDb(s), s.clock.now())),
    calibrationRefits: home(refitWhenLabelsGrew),
    ticketTextRecleaned: each(recleanAllTenants),
    duplicatesJudged: each(judgeDuplicatesAllTenants),
  },
};

/**
 * Runs every job of a schedule, the `each` ones on every database in `databases` (their reports keyed `job:DB_1` past the
 * home one) but those a move is copying between; one failing job is logged and reported, the others still run.
 */
export async function runCron(
  cron: string,
  services: Services,
  databases: readonly string[] = [HOME_DATABASE],
): Promise<Record<string, unknown>> {
  const log = services.log.with({ job: "cron", cron, runId: crypto.randomUUID() });
  const scheduled = jobs[cron];
  if (!scheduled) {
    log.warn("cron_unknown");
    return {};
  }
  const report: Record<string, unknown> = {};
  const started = performance.now();
  const moving = databases.length > 1 ? await databasesInMoves(services.home) : new Set<string>();
  for (const [name, { where, run }] of Object.entries(scheduled)) {
    for (const database of where === "home" ? [HOME_DATABASE] : databases) {
      const key = database === HOME_DATABASE ? name : `${name}:${database}`;
      if (where === "each" && moving.has(database)) {
        report[key] = { skipped: "a tenant is being moved to or from this database; the next run goes on" };
        continue;
      }
      const jobStarted = performance.now();
      const jobLog = log.with({ task: name, database });
      try {
        report[key] = await run({ ...servicesIn(services, database), log: jobLog });
        jobLog.info("cron_task_done", { durationMs: elapsed(jobStarted), result: report[key] });
      } catch (error) {
        report[key] = { error: error instanceof Error ? error.message : String(error) };
        jobLog.error("cron_task_failed", {
          durationMs: elapsed(jobStarted),
          errorCode: errorCodeOf(error),
          ...errorFields(error, { stack: true }),
        });
      }
    }
  }
  log.info("cron_done", { durationMs: elapsed(started), report });
  return report;
}

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;
