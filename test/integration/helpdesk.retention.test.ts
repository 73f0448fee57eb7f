import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  DELIVERY_RETENTION_MS,
  findDelivery,
  gatherThreadPart,
  getThread,
  pruneDeliveries,
  recordDelivery,
} from "../../src/features/helpdesk/deliveries";
import { newTenant } from "../support/api";

/** The retention test's "now": every row of the first test is newer, so it is kept. */
const NOW = Date.UTC(2026, 10, 23);

describe("helpdesk delivery records and gathered threads", () => {
  it("keeps the first customer message and the last agent reply of a thread, and records a delivery once", async () => {
    const { tenantId } = await newTenant();
    await gatherThreadPart(
      env.DB,
      tenantId,
      "hdc_thread",
      { externalId: "c1", subject: "Refund", question: "Where is my refund?" },
      NOW + 1,
    );
    await gatherThreadPart(
      env.DB,
      tenantId,
      "hdc_thread",
      { externalId: "c1", subject: "", question: "Hello?", answer: "First reply" },
      NOW + 2,
    );
    await gatherThreadPart(env.DB, tenantId, "hdc_thread", { externalId: "c1", answer: "Final reply" }, NOW + 3);
    expect(await getThread(env.DB, "hdc_thread", "c1")).toEqual({
      subject: "Refund",
      question: "Where is my refund?",
      answer: "Final reply",
    });

    const row = {
      connectionId: "hdc_thread",
      deliveryKey: "evt_1",
      tenantId,
      receivedAt: NOW + 10,
      outcome: "skipped" as const,
      reason: "not solved",
      externalId: "c1",
      ticketRowId: null,
    };
    await recordDelivery(env.DB, row);
    await recordDelivery(env.DB, { ...row, outcome: "queued", reason: null });
    expect(await findDelivery(env.DB, "hdc_thread", "evt_1")).toEqual(row);
  });

  it("forgets delivery records and gathered parts older than the retention, and keeps newer ones", async () => {
    const { tenantId } = await newTenant();
    const now = NOW;
    const old = now - DELIVERY_RETENTION_MS - 1;
    const base = { tenantId, outcome: "gathered" as const, reason: null, externalId: null, ticketRowId: null };
    await recordDelivery(env.DB, { ...base, connectionId: "hdc_ret", deliveryKey: "old", receivedAt: old });
    await recordDelivery(env.DB, { ...base, connectionId: "hdc_ret", deliveryKey: "new", receivedAt: now - 1000 });
    await gatherThreadPart(env.DB, tenantId, "hdc_ret", { externalId: "old", question: "Old?" }, old);
    await gatherThreadPart(env.DB, tenantId, "hdc_ret", { externalId: "new", question: "New?" }, now - 1000);

    expect(await pruneDeliveries(env.DB, now)).toEqual({ deliveries: 1, threads: 1 });
    expect(await findDelivery(env.DB, "hdc_ret", "old")).toBeNull();
    expect(await findDelivery(env.DB, "hdc_ret", "new")).not.toBeNull();
    expect(await getThread(env.DB, "hdc_ret", "old")).toBeNull();
    expect(await getThread(env.DB, "hdc_ret", "new")).toMatchObject({ question: "New?" });
  });
});
