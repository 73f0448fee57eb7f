import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import { createServices } from "../../src/app/services";
import type { TicketMessage } from "../../src/platform/ports/ticket-message";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { resendStrandedTickets, STRANDED_AFTER_MS } from "../../src/features/tickets/sweep";
import { REINDEX_CRON, runCron } from "../../src/app/cron";
import { newTenant } from "../support/api";

describe("the cron's stranded-ticket sweep", () => {
  it("sends again a ticket still received long after it arrived, and leaves fresh ones to the queue", async () => {
    const { tenantId } = await newTenant();
    const now = Date.UTC(2026, 10, 22, 12);
    const ticket = (ticketId: string) => ({
      ticketId,
      subject: "Refunds",
      question: "How long do refunds take?",
      answer: "Five days.",
      tags: [],
      resolvedAt: now,
    });
    const stranded = await d1PipelineStore(env.DB).insertTicket(tenantId, ticket("T-stranded"), now - STRANDED_AFTER_MS - 1000);
    await d1PipelineStore(env.DB).insertTicket(tenantId, ticket("T-fresh"), now - 60_000);

    const sent: MessageSendRequest<TicketMessage>[] = [];
    const real = env.TICKETS as Queue<TicketMessage>;
    // The real queue, recording what goes through it.
    const recording = {
      ...real,
      send: real.send.bind(real),
      sendBatch: async (messages: Iterable<MessageSendRequest<TicketMessage>>) => {
        sent.push(...messages);
        return real.sendBatch(messages);
      },
    } as Queue<TicketMessage>;

    expect(await resendStrandedTickets(d1PipelineStore(env.DB), recording, now)).toEqual({ resent: 1 });
    expect(sent.map((m) => m.body)).toEqual([{ tenantId, ticketRowId: stranded.row.id }]);
  });

  it("runs every five minutes with the re-index jobs", async () => {
    const clock = fixedClock(Date.now());
    const report = await runCron(REINDEX_CRON, createServices(env, clock));
    expect(report.resendStrandedTickets).toEqual({ resent: expect.any(Number) });
  });
});
