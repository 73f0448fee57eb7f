/**
 * POST /v1/webhooks/tickets/:provider/:connectionId, per provider: a solved ticket is queued with
 * the mapped question and answer, a redelivery is processed once, a non-solved event and a ticket
 * whose only agent text is an internal note are acknowledged (202) and skipped with a recorded reason.
 */
import { describe, expect, it } from "vitest";
import { QA } from "../fixtures/helpdesk";
import { newTenant } from "../support/api";
import { connect, countRows, deliveries, expectDelivery, post } from "../support/helpdesk";
import { freshId, scenarios, send, sendAll } from "../support/helpdesk-scenarios";

describe.each(scenarios)("POST /v1/webhooks/tickets/$provider/:connectionId", (scenario) => {
  it("queues a solved ticket (202) with the customer's question and the last public agent answer, notes and quotes left out", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, scenario.provider);
    const id = freshId();
    const { ticket } = await expectDelivery(sendAll(scenario, conn, scenario.solved(id)), "queued");
    expect(ticket).toMatchObject({
      ticketId: `${scenario.provider}:${scenario.externalId(id)}`,
      status: "received",
      source: scenario.provider,
      tags: expect.arrayContaining(["billing"]),
    });
    expect(ticket.question).toContain(QA.question);
    expect(ticket.answer).toContain(QA.answer);
    expect(ticket.answer).not.toMatch(/internal|sent from my|wrote:|<p>|blockquote/i);
    expect(ticket.question).not.toMatch(/sent from my|<p>|<div>/i);
    expect(await countRows("tickets", tenant.tenantId)).toBe(1);
    expect((await deliveries(tenant, conn.id))[0]).toMatchObject({ outcome: "queued", externalId: scenario.externalId(id) });
  });

  it("processes a redelivery once: the same delivery again answers 200 from its record and stores nothing", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, scenario.provider);
    const first = await sendAll(scenario, conn, scenario.solved(freshId()));
    expect(first.status).toBe(202);
    const again = await expectDelivery(post(conn.path, first.sent.body, first.sent.headers), "duplicate_delivery");
    expect(again.delivery).toMatchObject({ outcome: "queued" });
    expect(await countRows("tickets", tenant.tenantId)).toBe(1);
  });

  it("acknowledges a non-solved event with 202 and records why it was skipped", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, scenario.provider);
    const skipped = await expectDelivery(send(scenario, conn, conn.secret, scenario.unsolved(freshId())), "skipped");
    expect(skipped.reason).toMatch(/not (?:solved|closed|resolved|conversation\.admin\.closed|ticket\.solved|convo\.status|used)|is not/);
    expect(await countRows("tickets", tenant.tenantId)).toBe(0);
    expect((await deliveries(tenant, conn.id))[0]).toMatchObject({ outcome: "skipped", reason: skipped.reason });
  });
});

describe.each(scenarios.filter((s) => s.noteOnly !== null))(
  "POST /v1/webhooks/tickets/$provider/:connectionId: internal notes",
  (scenario) => {
    it("never takes an internal note as the answer: a solved ticket with only a note is skipped", async () => {
      const tenant = await newTenant();
      const conn = await connect(tenant, scenario.provider);
      const skipped = await expectDelivery(sendAll(scenario, conn, scenario.noteOnly!(freshId())), "skipped");
      expect(skipped.reason).toMatch(/no public (?:agent|admin) reply/);
      expect(await countRows("tickets", tenant.tenantId)).toBe(0);
    });
  },
);

describe("gathered conversations (Zendesk event subscriptions)", () => {
  it("keeps the public staff comment and completes it on ticket.status_changed → SOLVED", async () => {
    const { zendeskEvent } = await import("../fixtures/helpdesk");
    const zendesk = scenarios.find((s) => s.provider === "zendesk")!;
    const tenant = await newTenant();
    const conn = await connect(tenant, "zendesk");
    const id = freshId();
    const events = [
      zendeskEvent(id, "ticket.comment_added", {
        comment: { id: "1", body: QA.question, is_public: true, author: { id: "7", is_staff: false, name: "Ann" } },
      }),
      zendeskEvent(id, "ticket.comment_added", {
        comment: { id: "2", body: QA.answer, is_public: true, author: { id: "8", is_staff: true, name: "Maya" } },
      }),
      zendeskEvent(id, "ticket.comment_added", {
        comment: { id: "3", body: "Internal: refund by hand", is_public: false, author: { id: "8", is_staff: true, name: "Maya" } },
      }),
    ];
    for (const e of events) expect((await send(zendesk, conn, conn.secret, e)).status).toBe(202);
    expect(await countRows("helpdesk_threads", tenant.tenantId)).toBe(1);
    const solved = await expectDelivery(
      send(zendesk, conn, conn.secret, zendeskEvent(id, "ticket.status_changed", { current: "SOLVED", previous: "OPEN" })),
      "queued",
    );
    expect(solved.ticket).toMatchObject({ ticketId: `zendesk:${id}`, question: QA.question, answer: QA.answer });
    expect(await countRows("helpdesk_threads", tenant.tenantId)).toBe(0);
  });
});
