// Demo data for `npm start` (and the browser suite): a few memories, a show with history, a few
// FAQs, and resolved tickets sent through the signed webhook so the staging queue has items.
// Each part is added once: it is skipped when its data is already there.
import { createHmac } from "node:crypto";
import { hc } from "hono/client";

export const DEMO_SHOW_ID = "demo-show";

export async function seedDemo({ base, key, log = () => {} }) {
  /** The typed API client (src/client/client.ts); editors check the calls against the route types. @type {import("../src/client/client").RecallClient} */
  const api = hc(base, { headers: { authorization: `Bearer ${key}` } });
  await seedMemories(api, log);
  await seedShow(api, log);
  await seedFaqsAndTickets(api, log);
}

/** The answer's JSON; a failed call stops the seeding with its status and body. */
async function ok(pending) {
  const response = await pending;
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

async function seedMemories(api, log) {
  const existing = await ok(api.v1.memories.search.$post({ json: { scope: "demo", query: "Vercel deploy", limit: 1 } }));
  if (existing.results.length > 0) return;
  const demo = [
    ["How do I deploy to Vercel?", "question", 0.6],
    ["We decided to use Postgres for the billing service", "decision", 0.8],
    ["The staging database lives in Frankfurt", "fact", 0.5],
    ["Error E500 on checkout means the payment provider timed out", "insight", 0.7],
    ["我是安卓玩机用户", "fact", 0.5],
  ];
  for (const [content, memoryType, importance] of demo) {
    await ok(api.v1.memories.$post({ json: { scope: "demo", content, memoryType, importance, tags: ["demo"] } }));
  }
  log(`seeded ${demo.length} demo memories in scope "demo"`);
}

/** Seed 004's example show: questions already asked, one used, and a ranked batch. */
async function seedShow(api, log) {
  const show = api.v1.shows[":showId"];
  const param = { showId: DEMO_SHOW_ID };
  const status = await ok(show.status.$get({ param }));
  if (status.questionCount > 0) return;
  const questions = [
    { text: "What evidence supports machine consciousness?", model: "gpt-4o", confidence: 0.9, topics: ["consciousness"] },
    { text: "How do emotions differ between humans and language models?", model: "claude", confidence: 0.8, topics: ["emotions"] },
  ];
  await ok(show.questions.$post({ param, json: { questions } }));
  const candidates = [
    { text: "Is consciousness binary or a spectrum?", model: "gemini", confidence: 0.8 },
    { text: "Who should be liable when an autonomous car crashes?", model: "gpt-4o", confidence: 0.7 },
    { text: "Can we prove AI systems are conscious?", model: "claude", confidence: 0.85 },
  ];
  const ranked = await ok(show.rank.$post({ param, json: { topN: 3, candidates } }));
  const first = ranked.picks.find((p) => p.id);
  if (first) await ok(show.questions[":id"].used.$post({ param: { showId: DEMO_SHOW_ID, id: first.id } }));
  log(`seeded show "${DEMO_SHOW_ID}" with ${ranked.picks.length + 2} questions`);
}

const DEMO_FAQS = [
  {
    question: "How long does a refund take?",
    answer: "Refunds reach your card within 5–10 business days after we approve them.",
    tags: ["billing"],
  },
  {
    question: "How do I reset my password?",
    answer: "Use “Forgot password” on the sign-in page; the link in the email is valid for one hour.",
    tags: ["account"],
  },
  {
    question: "Can I change my plan mid-month?",
    answer: "Yes. Upgrades apply at once and are prorated; downgrades apply at the next renewal.",
    tags: ["billing"],
  },
];

const DEMO_TICKETS = [
  {
    ticketId: "DEMO-1",
    subject: "Refund",
    question: "Hi team, when will my refund arrive on my card? Thanks, Ann",
    answer: "Refunds reach your card within 5–10 business days; with some banks it can take up to 14 days.",
    tags: ["billing"],
  },
  {
    ticketId: "DEMO-2",
    subject: "Invoices",
    question: "Where can I download my invoices as PDF?",
    answer: "Open Settings → Billing → Invoices and use the download button next to each invoice.",
    tags: ["billing"],
  },
  {
    ticketId: "DEMO-3",
    subject: "Team",
    question: "How do I add a teammate to my workspace?",
    answer: "Admins invite teammates from Settings → Members → Invite; the invite link is valid for 7 days.",
    tags: ["account"],
  },
  {
    ticketId: "DEMO-4",
    subject: "",
    question: "Can I switch to a cheaper plan in the middle of the month?",
    answer: "Yes. Downgrades apply at the next renewal and unused credit carries over.",
    tags: ["billing"],
  },
];

export function signTicketBody(secret, body, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { "x-recall-timestamp": String(timestamp), "x-recall-signature": `v1=${signature}` };
}

/** Posts tickets to the webhook, signed with a fresh secret of the key's tenant (needs an admin key). */
export async function postTickets(api, tickets) {
  const created = await ok(api.v1.admin["webhook-secrets"].$post({ json: {} }));
  // The signature covers the exact bytes sent, so the body is serialized here and sent as is.
  const body = JSON.stringify({ tickets });
  const headers = { "content-type": "application/json", "x-recall-tenant": created.tenantId, ...signTicketBody(created.secret, body) };
  return ok(api.v1.webhooks.tickets.$post({}, { headers, init: { body } }));
}

async function seedFaqsAndTickets(api, log) {
  const existing = await ok(api.v1.faqs.$get({ query: { limit: "1" } }));
  if (existing.faqs.length > 0) return;
  for (const faq of DEMO_FAQS) await ok(api.v1.faqs.$post({ json: faq }));
  // A few searches from help-widget sessions: the FAQ pages' hit charts have something to show.
  for (const [i, query] of ["how long until my refund arrives", "refund time", "reset password link", "refund to my card"].entries()) {
    await ok(api.v1.faqs.search.$post({ json: { query, limit: 3, sessionId: `demo-session-${i}` } }));
  }
  const resolvedAt = new Date().toISOString();
  await postTickets(
    api,
    DEMO_TICKETS.map((t) => ({ ...t, resolvedAt, source: "demo" })),
  );
  log(`seeded ${DEMO_FAQS.length} FAQs and sent ${DEMO_TICKETS.length} tickets through the webhook (the queue stages them within seconds)`);
}
