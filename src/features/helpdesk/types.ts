/** What every provider module gives the intake route: pure verification and mapping. */
import type { HelpdeskProvider } from "../../platform/db/schema/helpdesk";
import type { TicketInput } from "../../platform/ports/ticket-message";

export interface Delivery {
  rawBody: string;
  /** A request header, lower-case name. */
  header(name: string): string | undefined;
  nowMs: number;
}

/** One message of a conversation, for providers whose events carry one message each (Front, Zendesk events). */
export interface ThreadPart {
  externalId: string;
  subject?: string | undefined;
  /** The first customer message (kept only if none is stored yet). */
  question?: string | undefined;
  /** A public agent reply (the last one wins). */
  answer?: string | undefined;
}

export type Mapped =
  /** A solved/closed ticket with question and answer. */
  | { kind: "ticket"; ticket: TicketInput }
  /** A solved event whose messages were gathered from earlier events (ThreadPart). */
  | {
      kind: "solved_thread";
      externalId: string;
      subject?: string | undefined;
      question?: string | undefined;
      tags: string[];
      resolvedAt: number;
    }
  /** One message to remember until the conversation is solved. */
  | { kind: "thread_part"; part: ThreadPart }
  /** Acknowledged (202) and recorded, never processed: not solved, no public answer, … */
  | { kind: "skip"; reason: string; externalId?: string | undefined }
  /** Signed, but not the shape the provider documents: 400. */
  | { kind: "invalid"; message: string };

export interface ProviderModule {
  provider: HelpdeskProvider;
  /** "generated": Recall makes the secret (shown once); "supplied": the helpdesk shows it and the admin pastes it. */
  secretSource: "generated" | "supplied";
  /** A fresh secret in the form the helpdesk accepts (only for "generated"). */
  generateSecret?: () => string;
  verify(delivery: Delivery, secrets: readonly string[]): Promise<boolean>;
  /** The provider's own id for this delivery/event (redeliveries repeat it), or null to use the body's hash. */
  deliveryId(delivery: Delivery, json: unknown): string | null;
  map(json: unknown, delivery: Delivery): Mapped;
  /** A setup handshake answered 200 `{ challenge }` after verification (Front's X-Front-Challenge): the value to echo, or null. */
  challenge?(delivery: Delivery): string | null;
}

/** How far a signed timestamp may be from now, either way (the usual 5 minutes). */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

export const LIMITS = { ticketId: 200, subject: 500, text: 20_000, tags: 32, tag: 64 } as const;

/** Fits provider data into the pipeline's ticket limits (a helpdesk cannot be asked to send less). */
export function clampTicket(
  provider: HelpdeskProvider,
  t: { externalId: string; subject: string; question: string; answer: string; tags: readonly unknown[]; resolvedAt: number },
): TicketInput {
  const tags = [
    ...new Set(
      t.tags
        .filter((x): x is string => typeof x === "string")
        .map((x) => x.trim().slice(0, LIMITS.tag))
        .filter(Boolean),
    ),
  ].slice(0, LIMITS.tags);
  return {
    ticketId: `${provider}:${t.externalId}`.slice(0, LIMITS.ticketId),
    subject: t.subject.trim().slice(0, LIMITS.subject),
    question: t.question.trim().slice(0, LIMITS.text),
    answer: t.answer.trim().slice(0, LIMITS.text),
    tags,
    resolvedAt: t.resolvedAt,
    source: provider,
  };
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
/** Epoch ms from unix seconds, epoch ms or an ISO string; `fallback` otherwise. */
export function toEpochMs(v: unknown, fallback: number): number {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v < 1e11 ? v * 1000 : v;
  if (typeof v === "string" && v.trim()) {
    if (/^\d+(?:\.\d+)?$/.test(v.trim())) return toEpochMs(Number(v), fallback);
    const parsed = Date.parse(v);
    if (Number.isFinite(parsed)) return parsed;
  }
  return fallback;
}
