/**
 * Upkeep: FAQ text that tickets made before today's cleaning (src/core/text/ticket-clean.ts) may still
 * carry a customer's details. For each decided ticket of a tenant, what cleaning now removes from
 * it is taken out, as the same placeholders, wherever the ticket's text went: the FAQ an approved
 * item created or merged into (an FAQ update, so a version to roll back to), the variant it added
 * (replaced by its cleaned text), and a pending staging item. Only the ticket's own removed
 * substrings are touched, so a reviewer's edits stay; a second run finds nothing to change
 * (idempotent). One page of tickets per call: the admin route and the cron carry the cursor.
 */
import { faqStore } from "../faqs/select";
import type { FaqVariantSource } from "../../platform/db/schema";
import type { Services } from "../../platform/ports/services";
import { tenantsPlacedHere } from "../placement/directory";
import type { Removal } from "../../core/text/pii/kinds";
import { PLACEHOLDER } from "../../core/text/pii/redact";
import { cleanTicket } from "../../core/text/ticket-clean";
import type { TicketRecord } from "./port";
import { pipelineStore } from "./select";

/** Tickets looked at per call: each costs a cleaning and a few reads. */
export const RECLEAN_PAGE = 50;
/** Who the FAQ versions say made the change. */
export const RECLEAN_ACTOR = "upkeep:personal-details";

export interface RecleanReport {
  tickets: number;
  faqsUpdated: number;
  variantsReplaced: number;
  stagingRewritten: number;
  /** Pass as `before` for the next page; null when every decided ticket was looked at. */
  next: number | null;
}

/** `text` without the ticket's removed pieces: each becomes its placeholder, longest first. */
export function scrub(text: string, removals: readonly Removal[]): string {
  let out = text;
  for (const r of [...removals].sort((a, b) => b.text.length - a.text.length)) {
    if (r.text.trim().length < 3) continue;
    out = out.split(r.text).join(PLACEHOLDER[r.kind]);
  }
  return out === text
    ? text
    : out
        .replace(/[ \t]{2,}/g, " ")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
}

export async function recleanPipelineText(services: Services, tenantId: string, before?: number): Promise<RecleanReport> {
  const tickets = pipelineStore(services);
  const faqs = faqStore(services);
  const page = await tickets.listTickets(tenantId, { status: "decided", limit: RECLEAN_PAGE, before });
  const report: RecleanReport = {
    tickets: page.rows.length,
    faqsUpdated: 0,
    variantsReplaced: 0,
    stagingRewritten: 0,
    next: page.nextCursor,
  };
  for (const ticket of page.rows) {
    const { removals } = cleanTicket(ticket.subject, ticket.question, ticket.answer);
    if (removals.length === 0) continue;
    const faqId = await touchedFaq(services, ticket, removals, report);
    if (faqId) await recleanFaq(services, tenantId, faqId, removals, report);
    if (ticket.variantId && ticket.matchedFaqId !== null) {
      const owner = faqId ?? ticket.matchedFaqId;
      const variant = (await faqs.variantsOf(tenantId, [owner])).find((v) => v.id === ticket.variantId);
      const cleaned = variant ? scrub(variant.variant_text, removals) : null;
      if (variant && cleaned && cleaned !== variant.variant_text) {
        await faqs.deleteVariant(tenantId, variant.id);
        const added = await faqs.addVariant(tenantId, owner, RECLEAN_ACTOR, {
          variantText: cleaned,
          source: variant.source as FaqVariantSource,
          ...(variant.source_ticket_id ? { sourceTicketId: variant.source_ticket_id } : {}),
        });
        if (added.ok) report.variantsReplaced++;
      }
    }
  }
  return report;
}

/** The FAQ an approved staging item made or merged into (null: none, or not approved yet); a pending item is re-cleaned in place. */
async function touchedFaq(services: Services, ticket: TicketRecord, removals: readonly Removal[], report: RecleanReport) {
  if (!ticket.stagingId) return null;
  const store = pipelineStore(services);
  const item = await store.getStaging(ticket.tenantId, ticket.stagingId);
  if (!item) return null;
  if (item.status === "approved") return item.resultFaqId;
  if (item.status !== "pending") return null;
  const text = {
    question: scrub(item.question, removals),
    answer: scrub(item.answer, removals),
    variantText: item.variantText === null ? null : scrub(item.variantText, removals),
  };
  if (text.question !== item.question || text.answer !== item.answer || text.variantText !== item.variantText)
    if (await store.rewritePendingStaging(ticket.tenantId, item.id, text)) report.stagingRewritten++;
  return null;
}

async function recleanFaq(services: Services, tenantId: string, faqId: string, removals: readonly Removal[], report: RecleanReport) {
  const store = faqStore(services);
  const faq = await store.get(tenantId, faqId);
  if (!faq) return;
  const question = scrub(faq.question, removals);
  const answer = scrub(faq.answer, removals);
  if (question === faq.question && answer === faq.answer) return;
  const updated = await store.update(
    tenantId,
    faqId,
    RECLEAN_ACTOR,
    { ...(question !== faq.question ? { question } : {}), ...(answer !== faq.answer ? { answer } : {}) },
    { changeType: "update", reason: "personal details from a ticket removed (upkeep)" },
  );
  if (updated.ok) report.faqsUpdated++;
}

/** Pages per cron run, over all tenants: the run stays well inside an invocation's limits. */
export const RECLEAN_PAGES_PER_RUN = 20;
/**
 * Bumped when the cleaning removes more than before, so every tenant is gone through again. Not
 * bumped for the given names (pii/names.ts): some products carry one ("Alexa", "Okta"), and the cron
 * must not rewrite a knowledge base's own words in live FAQs on a lexicon's word. The consumer keeps
 * the words the FAQs say (vocabulary.ts), but here that check cannot tell a product's word from a
 * name that already leaked into the FAQ being cleaned; the admin route re-cleans on request.
 */
const RECLEAN_PASS = "v1";

/**
 * The daily cron: each tenant once through its decided tickets, resuming where the last run
 * stopped (a cursor per tenant in KV); a finished tenant is skipped until RECLEAN_PASS changes.
 */
export async function recleanAllTenants(
  services: Services,
): Promise<{ tenants: number; pages: number } & Omit<RecleanReport, "tickets" | "next">> {
  const total = { tenants: 0, pages: 0, faqsUpdated: 0, variantsReplaced: 0, stagingRewritten: 0 };
  for (const id of await tenantsPlacedHere(services)) {
    const key = `upkeep:reclean:${RECLEAN_PASS}:${id}`;
    const state = await services.cache.get<{ before: number | null; done: boolean }>(key, "json");
    if (state?.done) continue;
    total.tenants++;
    let before = state?.before ?? undefined;
    while (total.pages < RECLEAN_PAGES_PER_RUN) {
      const page = await recleanPipelineText(services, id, before);
      total.pages++;
      total.faqsUpdated += page.faqsUpdated;
      total.variantsReplaced += page.variantsReplaced;
      total.stagingRewritten += page.stagingRewritten;
      await services.cache.put(key, JSON.stringify({ before: page.next, done: page.next === null }));
      if (page.next === null) break;
      before = page.next;
    }
    if (total.pages >= RECLEAN_PAGES_PER_RUN) break;
  }
  return total;
}
