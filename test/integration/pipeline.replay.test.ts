/**
 * Replay: 10 seeded FAQs, 40 tickets that paraphrase them (4 each, some with greetings and
 * signatures, some whose answers add information), 10 tickets on genuinely new topics and 2 that
 * repeat two of those new topics. Tickets go through the real consumer one by one (real D1, the
 * real local embedder); a reviewer approves every staging item at once (the worst case for
 * duplicates). Ground truth is each ticket's topic label, not the pipeline's own threshold:
 * a DUPLICATE is a NEW decision for a ticket whose topic already had an FAQ (seeded, or created
 * earlier in the replay); a MISSED NEW is a genuinely new topic folded into an existing FAQ
 * (SKIP/ADD_VARIANT/MERGE) — the opposite error. Figures are printed (REPLAY …) and the seed's
 * target (< 5 % duplicate FAQs) is asserted as measured, with the thresholds as they are.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { approveStaging } from "../../src/features/tickets/staging";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { readTicket, seedFaq } from "../support/tickets";

const FAQS: [question: string, answer: string][] = [
  ["How do I reset my password?", "Click 'Forgot password' on the sign-in page and follow the link we email you."],
  ["How long does a refund take to arrive?", "Refunds reach your card within 5 to 10 business days after we receive the return."],
  ["Can I change the shipping address after ordering?", "Yes, until the order ships: open the order and edit the address."],
  ["How do I cancel my subscription?", "Go to Settings → Billing → Cancel plan. You keep access until the end of the period."],
  ["Which payment methods do you accept?", "We accept Visa, Mastercard, American Express and PayPal."],
  ["How can I track my order?", "Open Orders and click Track: the tracking link appears once the parcel ships."],
  ["How do I return an item?", "Print the return label from your order page and drop the parcel at any post office within 30 days."],
  [
    "How do I change the email address on my account?",
    "Open Profile, edit the email field and confirm the link we send to the new address.",
  ],
  ["Where can I download my invoices?", "Invoices are under Billing → Invoices; each one downloads as a PDF."],
  [
    "How do I turn on two-factor authentication?",
    "Open Security settings, choose Two-factor authentication and scan the QR code with an authenticator app.",
  ],
];

/** [topic, question, answer]: topics 0–9 are the seeded FAQs, 10+ are new. */
const TICKETS: [number, string, string][] = [
  [0, "Hi, I forgot my password. How can I reset it?\nThanks,\nMaria", "Use 'Forgot password' on the sign-in page; we email you a link."],
  [0, "How can I reset my password?", "Click Forgot password on the login page."],
  [0, "I can't remember my password, what do I do?", "Use the Forgot password link on the sign-in page."],
  [
    0,
    "Reset password please, how?",
    "The sign-in page has a Forgot password link; the email link is valid for 24 hours and can be used once.",
  ],
  [1, "How long until I get my refund?", "Refunds reach your card within 5 to 10 business days."],
  [1, "Hello team,\nWhen will my refund arrive?\nBest regards,\nTom", "Within 5 to 10 business days after the return arrives."],
  [1, "How many days does a refund take?", "5 to 10 business days after we receive the return."],
  [
    1,
    "Refund still not here, how long does it usually take?",
    "PayPal refunds arrive instantly; card refunds take 5 to 10 business days; bank transfers need three extra working days.",
  ],
  [2, "Can I change the delivery address after ordering?", "Yes, until it ships, edit the address on the order."],
  [2, "Can I update my shipping address after I placed an order?", "Yes, before the order ships."],
  [2, "I typed the wrong address on my order, can I fix it?", "Edit the address on the order page until it ships."],
  [2, "How do I change where my order is shipped?", "Open the order and edit the address before it ships."],
  [3, "How can I cancel my subscription?", "Settings → Billing → Cancel plan."],
  [3, "I want to stop my subscription, how?", "Cancel in Settings → Billing; access lasts until the period ends."],
  [3, "Hi there,\nHow do I cancel my plan?\nCheers", "Settings → Billing → Cancel plan."],
  [3, "How do I end my membership?", "Cancel the plan under Settings → Billing."],
  [4, "What payment methods do you accept?", "Visa, Mastercard, American Express and PayPal."],
  [4, "Can I pay with PayPal?", "Yes, PayPal is accepted, as are Visa, Mastercard and American Express."],
  [4, "Which credit cards can I use?", "Visa, Mastercard and American Express."],
  [4, "Do you take Apple Pay?", "Apple Pay works in Safari on iPhone and Mac since March; Google Pay is coming later this year."],
  [5, "How do I track my order?", "Orders → Track, once the parcel ships."],
  [5, "Where is my order? How can I see its status?", "Open Orders and click Track."],
  [5, "How can I follow my package delivery?", "The tracking link is on the order page once shipped."],
  [5, "Is there a tracking number for my order?", "Yes, it appears under Orders → Track after shipping."],
  [6, "How can I return an item?", "Print the return label from the order page and drop it at a post office."],
  [6, "I want to send back a product, how?", "Use the return label from your order page within 30 days."],
  [6, "How do I return something I bought?", "Print the label on the order page; 30 days."],
  [6, "What is the process to return an order?", "Return label from the order page, then any post office; within 30 days."],
  [7, "How do I update my email address?", "Profile → edit email → confirm the link."],
  [7, "Can I change the email on my account?", "Yes, in Profile; confirm the link sent to the new address."],
  [7, "How to change my login email?", "Edit it in Profile and confirm."],
  [7, "Hello,\nI need to change my account email address, how?\nThank you", "Profile → email → confirm via the link."],
  [8, "How do I download my invoices?", "Billing → Invoices, each is a PDF."],
  [8, "Where do I find my invoices?", "Under Billing → Invoices."],
  [8, "Can I get a PDF of my invoice?", "Yes, Billing → Invoices downloads PDFs."],
  [8, "Where are my billing receipts?", "Billing → Invoices."],
  [9, "How do I enable two-factor authentication?", "Security settings → Two-factor authentication → scan the QR code."],
  [9, "How can I set up 2FA on my account?", "Security settings, then scan the QR code with an authenticator app."],
  [9, "How do I add an authenticator app to my login?", "Security → Two-factor authentication → scan the QR code."],
  [9, "Can I use two-factor authentication?", "Yes, turn it on in Security settings."],
  [10, "Do gift cards expire?", "Gift cards never expire."],
  [11, "Do you offer a student discount?", "Students get 20% off with a verified university email."],
  [12, "Can you ship to a PO box?", "Yes, standard shipping can go to PO boxes; express cannot."],
  [13, "What are the API rate limits?", "100 requests per minute per API key."],
  [14, "How do I add team members to my workspace?", "Invite them from Workspace → Members."],
  [15, "Does the app have a dark mode?", "Yes, under Appearance settings."],
  [16, "How do I request a copy of my personal data?", "Email privacy@example.com; we send an export within 30 days."],
  [17, "Can I pause my subscription for a month?", "Yes, pausing is possible for up to 3 months under Billing."],
  [18, "Do you price match other stores?", "No, we do not price match."],
  [19, "What are your customer service phone hours?", "Phone support is open 9am to 5pm CET on weekdays."],
  [10, "Is there an expiry date on gift cards?", "No, gift cards do not expire."],
  [13, "How many API requests can I make per minute?", "Up to 100 per minute per key."],
];

it("replays ~50 tickets against 10 seeded FAQs and reports duplicates, variants and NEW items", { timeout: 180_000 }, async () => {
  const tenant = await newTenant();
  const services = createServices(env);
  /** topic → the FAQ that answers it (seeded, or created by an approval in the replay). */
  const faqOfTopic = new Map<number, string>();
  for (const [i, [q, a]] of FAQS.entries()) faqOfTopic.set(i, await seedFaq(tenant, q, a));
  const topicOfFaq = new Map([...faqOfTopic].map(([t, id]) => [id, t]));

  const counts = { SKIP: 0, ADD_VARIANT: 0, MERGE: 0, NEW: 0 };
  let duplicates = 0;
  let newFound = 0;
  let missedNew = 0;
  let wrongFaq = 0;
  let paraphrases = 0;
  const lines: string[] = [];
  for (const [n, [topic, question, answer]] of TICKETS.entries()) {
    const known = faqOfTopic.has(topic);
    if (known) paraphrases++;
    const { row } = await d1PipelineStore(env.DB).insertTicket(
      tenant.tenantId,
      { ticketId: `R-${n}`, subject: "", question, answer, tags: [], resolvedAt: 0 },
      Date.now(),
    );
    const outcome = await processTicket(services, { tenantId: tenant.tenantId, ticketRowId: row.id });
    expect(outcome.kind).toBe("decided");
    const t = await readTicket(tenant, row.id);
    const d = t.decision!;
    counts[d.action as keyof typeof counts]++;
    let verdict = "ok";
    if (d.action === "NEW") {
      if (known) {
        duplicates++;
        verdict = "DUPLICATE";
      } else newFound++;
    } else if (!known) {
      missedNew++;
      verdict = "MISSED_NEW";
    } else if (topicOfFaq.get(d.matchedFaqId ?? "") !== topic) {
      wrongFaq++;
      verdict = "WRONG_FAQ";
    }
    lines.push(
      `${String(n).padStart(2)} topic ${String(topic).padStart(2)} ${d.action.padEnd(11)} ${(d.similarity ?? 0).toFixed(3)} ${verdict.padEnd(10)} ${d.cleanedQuestion}`,
    );
    // The reviewer approves every staging item at once (worst case for duplicates).
    if (d.stagingId) {
      const approved = await approveStaging(services, tenant.tenantId, d.stagingId, "reviewer", {});
      expect(approved.ok).toBe(true);
      if (approved.ok && d.action === "NEW" && !known) {
        faqOfTopic.set(topic, approved.value.resultFaqId!);
        topicOfFaq.set(approved.value.resultFaqId!, topic);
      }
    }
  }
  const stats = await expectJson(apiClient(tenant.adminKey).v1.pipeline.stats.$get({ query: {} }), 200);
  const duplicateRate = duplicates / paraphrases;
  console.log(lines.join("\n"));
  console.log(
    `REPLAY tickets=${TICKETS.length} paraphrases=${paraphrases} newTopicTickets=${TICKETS.length - paraphrases} | ` +
      `SKIP=${counts.SKIP} ADD_VARIANT=${counts.ADD_VARIANT} MERGE=${counts.MERGE} NEW=${counts.NEW} | ` +
      `duplicateFaqsCreated=${duplicates} (${(100 * duplicateRate).toFixed(1)}% of paraphrase tickets) newItemsFound=${newFound}/${TICKETS.length - paraphrases} ` +
      `missedNew=${missedNew} wrongFaq=${wrongFaq} variantsAdded=${stats.variantsPerFaq.pipelineVariants} variantsPerFaq=${stats.variantsPerFaq.mean.toFixed(2)} ` +
      `statsDuplicateProxy=${stats.duplicateCreation.likelyDuplicates}/${stats.duplicateCreation.checked}`,
  );
  expect(stats.byAction).toEqual(counts);
  // Seed 002 §12 target: duplicate FAQ rate < 5 %.
  expect(duplicateRate).toBeLessThan(0.05);
});
