/**
 * Per provider: how a solved ticket arrives (one delivery, or the messages and then the
 * solved/archived event), how a non-solved event and an internal-note-only ticket look, and how
 * the provider signs. The payloads and signing come from test/fixtures/helpdesk.ts.
 */
import type { HelpdeskProvider } from "../../src/platform/db/schema/helpdesk";
import {
  freshdeskPayload,
  frontEvent,
  helpscoutConversation,
  intercomClosed,
  QA,
  sign,
  type SignOptions,
  standardPayload,
  zendeskEvent,
  zendeskTrigger,
} from "../fixtures/helpdesk";
import { type Connection, type DeliveryResponse, post } from "./helpdesk";

export interface Sent {
  body: string;
  headers: Record<string, string>;
}

export interface Scenario {
  provider: HelpdeskProvider;
  /** The deliveries of one solved ticket, in order (the last one completes it). */
  solved(id: string): unknown[];
  unsolved(id: string): unknown;
  /** A solved ticket whose only agent text is an internal note (null: the provider's payload cannot carry notes). */
  noteOnly: ((id: string) => unknown[]) | null;
  sign(secret: string, body: string, o?: SignOptions): Promise<Record<string, string>>;
  /** The external id the ticket is stored under. */
  externalId(id: string): string;
}

const reply = (at: number) => ({ part_type: "comment", body: `<p>${QA.answer}</p>`, author: "admin", at });
const note = (at: number) => ({ part_type: "note", body: "<p>Internal: refund by hand, legacy plan</p>", author: "admin", at });
const customer = { type: "customer", body: `<p>${QA.question}</p>`, at: "2026-11-01T09:00:00Z" };

export const scenarios: Scenario[] = [
  {
    provider: "standard",
    solved: (id) => [standardPayload(id)],
    unsolved: (id) => standardPayload(id, { type: "ticket.updated" }),
    noteOnly: null,
    sign: (s, b, o) => sign.standard(s, b, o),
    externalId: (id) => id,
  },
  {
    provider: "zendesk",
    solved: (id) => [zendeskTrigger(id)],
    unsolved: (id) => zendeskTrigger(id, { status: "Open" }),
    noteOnly: (id) => [
      zendeskEvent(id, "ticket.comment_added", {
        comment: { id: "1", body: "Internal: refund by hand", is_public: false, author: { id: "8", is_staff: true, name: "Maya" } },
      }),
      zendeskEvent(id, "ticket.status_changed", { current: "SOLVED", previous: "OPEN" }),
    ],
    sign: (s, b, o) => sign.zendesk(s, b, o),
    externalId: (id) => id,
  },
  {
    provider: "intercom",
    solved: (id) => [
      intercomClosed(id, [reply(1793527000), note(1793527100), { part_type: "close", body: null, author: "admin", at: 1793527200 }]),
    ],
    unsolved: (id) => intercomClosed(id, [reply(1793527000)], { topic: "conversation.admin.replied" }),
    noteOnly: (id) => [intercomClosed(id, [note(1793527100)])],
    sign: (s, b, o) => sign.intercom(s, b, o),
    externalId: (id) => id,
  },
  {
    provider: "helpscout",
    solved: (id) => [
      helpscoutConversation(Number(id), [
        customer,
        { type: "reply", body: `<p>${QA.answer}</p>`, at: "2026-11-01T09:30:00Z" },
        { type: "note", body: "<p>Internal: escalate</p>", at: "2026-11-01T09:40:00Z" },
      ]),
    ],
    unsolved: (id) => helpscoutConversation(Number(id), [customer], { status: "pending" }),
    noteOnly: (id) => [
      helpscoutConversation(Number(id), [customer, { type: "note", body: "<p>Internal: escalate</p>", at: "2026-11-01T09:40:00Z" }]),
    ],
    sign: (s, b, o) => sign.helpscout(s, b, o),
    externalId: (id) => id,
  },
  {
    provider: "freshdesk",
    solved: (id) => [freshdeskPayload(id)],
    unsolved: (id) => freshdeskPayload(id, { status: "Pending" }),
    noteOnly: null,
    sign: (s) => sign.freshdesk(s),
    externalId: (id) => id,
  },
  {
    provider: "front",
    solved: (id) => [
      frontEvent(id, "inbound", { body: `<p>${QA.question}</p>`, is_inbound: true }),
      frontEvent(id, "comment", { body: "Internal: refund by hand", is_inbound: false }),
      frontEvent(id, "out_reply", { body: `<p>${QA.answer}</p><blockquote>${QA.question}</blockquote>`, is_inbound: false }),
      frontEvent(id, "archive"),
    ],
    unsolved: (id) => frontEvent(id, "assign"),
    noteOnly: (id) => [
      frontEvent(id, "inbound", { body: `<p>${QA.question}</p>`, is_inbound: true }),
      frontEvent(id, "comment", { body: "Internal: refund by hand", is_inbound: false }),
      frontEvent(id, "archive"),
    ],
    sign: (s, b, o) => sign.front(s, b, o),
    externalId: (id) => id,
  },
];

/** Signs and posts one payload; returns the typed response (post) with what was sent (for replays). */
export async function send(
  scenario: Scenario,
  conn: Pick<Connection, "path">,
  secret: string,
  payload: unknown,
  o?: SignOptions,
): Promise<DeliveryResponse & { sent: Sent }> {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const headers = await scenario.sign(secret, body, o);
  const sent: Sent = { body, headers };
  return Object.assign(await post(conn.path, body, headers), { sent });
}

/** Sends every delivery of a payload list; returns the last response. */
export async function sendAll(scenario: Scenario, conn: Connection, payloads: unknown[]) {
  let last: Awaited<ReturnType<typeof send>> | undefined;
  for (const p of payloads) {
    last = await send(scenario, conn, conn.secret, p);
    if (last.status >= 400) return last;
  }
  return last!;
}

let n = 0;
/** A fresh external id (Help Scout's are numbers). */
export const freshId = () => String(4000 + ++n + Math.floor(Math.random() * 1000) * 100);
