import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fuzz } from "../../fuzz/run";
import { formatTable } from "../../fuzz/table";
import type { Doc } from "../../fuzz/schema";
import { newTenant } from "../support/api";
import { newWebhookSecret } from "../support/tickets";

/** A short fixed-seed run of `npm run fuzz` (fuzz/run.ts) against this Worker: the same checks, fewer requests. */
describe("schema-driven fuzzing (fixed seed)", () => {
  it(
    "answers every operation's valid and broken requests with documented statuses and bodies, no 5xx, no leaks",
    { timeout: 240_000 },
    async () => {
      const tenant = await newTenant();
      const secret = await newWebhookSecret(tenant);
      const doc = (await (await SELF.fetch("https://recall.test/openapi.json")).json()) as Doc;
      const reports = await fuzz(
        doc,
        async ({ method, path, headers, body }) => {
          const response = await SELF.fetch(`https://recall.test${path}`, { method, headers, body });
          return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
        },
        { adminKey: tenant.adminKey, clientKey: tenant.clientKey, webhook: { tenantId: tenant.tenantId, secret } },
        { requests: 300, timeLimitMs: 150_000, seed: 20261123 },
      );
      const failures = reports.flatMap((r) => r.failures);
      expect(failures, formatTable(reports)).toEqual([]);
      expect(reports.length).toBe(Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0));
      expect(reports.every((r) => r.requests > 0)).toBe(true);
      // Both sides were exercised: successes and refusals.
      const statuses = new Set(reports.flatMap((r) => Object.keys(r.statuses).map(Number)));
      for (const status of [200, 201, 204, 400, 401, 404]) expect(statuses.has(status), formatTable(reports)).toBe(true);
    },
  );
});
