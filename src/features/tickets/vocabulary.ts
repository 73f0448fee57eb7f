/**
 * A ticket cleaned with the knowledge base's own words kept: the names, companies and codes the
 * cleaning took out are looked up in the tenant's live FAQs (FaqStore.wordsInUse, one lookup), and
 * a word the FAQs already say is the product's ("Alexa", "Okta", "Julia", "SKU-448812"), not a
 * customer's: the ticket is cleaned again keeping those. Nothing is looked up when none was taken out.
 */
import type { CleanTicket } from "../../core/text/ticket-clean";
import { cleanTicket } from "../../core/text/ticket-clean";
import type { Services } from "../../platform/ports/services";
import { faqStore } from "../faqs/select";

export async function cleanTicketKeepingVocabulary(
  services: Services,
  tenantId: string,
  ticket: { subject: string; question: string; answer: string },
): Promise<CleanTicket> {
  const first = cleanTicket(ticket.subject, ticket.question, ticket.answer);
  const words = first.removals.flatMap((r) =>
    r.kind === "name" || r.kind === "company" ? (r.text.match(/[\p{L}\p{N}'’-]{3,}/gu) ?? []) : r.kind === "customer_id" ? [r.text] : [],
  );
  if (words.length === 0) return first;
  const inUse = await faqStore(services).wordsInUse(tenantId, words);
  if (inUse.size === 0) return first;
  return cleanTicket(ticket.subject, ticket.question, ticket.answer, new Set([...inUse].map((w) => w.toLowerCase())));
}
