/**
 * The cron's part in self-fits: every five minutes it goes on with the running fits (so a fit
 * started by one call finishes without more calls); every night it refits a tenant's scale when its
 * labels have grown enough since the fit in force. Tenants without a fit are not fitted
 * automatically: a first fit is an admin's decision (POST /v1/admin/calibration/fit).
 */
import type { Services } from "../../platform/ports/services";
import { advanceFit, runningFits, startFit } from "./job";
import { SOURCES } from "./sources";
import { activeVersions, DEPLOYMENT } from "../calibration/tables-store";
import { labelCount } from "./labels";
import { servicesForTenant } from "../placement/directory";

/** How long one cron run works on fits in all. */
const CRON_BUDGET_MS = 20_000;
/** A refit starts when the labels have grown by this share and this many since the fit in force. */
export const REFIT_GROWTH = 0.2;
export const REFIT_MIN_NEW_LABELS = 50;

export async function advanceRunningFits(services: Services): Promise<Record<string, unknown>> {
  const started = Date.now();
  let advanced = 0;
  let finished = 0;
  for (const fit of await runningFits(services.home)) {
    const left = CRON_BUDGET_MS - (Date.now() - started);
    if (left <= 0) break;
    const after = await advanceFit(await servicesForTenant(services, fit.tenantId), fit, Math.min(left, 8_000));
    advanced++;
    if (after.status !== "running") finished++;
  }
  return { advanced, finished };
}

export async function refitWhenLabelsGrew(services: Services): Promise<Record<string, unknown>> {
  let started = 0;
  for (const row of await activeVersions(services.home, services.embedder.model)) {
    if (row.scope === DEPLOYMENT) continue;
    const before = Number((row.report as { labels?: number }).labels ?? 0);
    const onTenant = await servicesForTenant(services, row.scope);
    const now = await labelCount(onTenant, row.scope);
    if (now - before < REFIT_MIN_NEW_LABELS || now < before * (1 + REFIT_GROWTH)) continue;
    const { created } = await startFit(onTenant, { scope: row.scope, tenantId: row.scope, model: row.model, sources: SOURCES, by: "cron" });
    if (created) started++;
  }
  return { started };
}
