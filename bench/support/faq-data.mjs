// The FAQ benches' synthetic knowledge base: FAQs built from actions × objects × contexts, each
// with a unique reference code, and the queries over them (paraphrases with new wording, codes).
import { prng } from "./data.mjs";
import { importFaqs } from "./worker.mjs";

export const VARIANTS_PER_FAQ = 3;

const ACTIONS = [
  "reset",
  "export",
  "cancel",
  "renew",
  "update",
  "delete",
  "share",
  "restore",
  "download",
  "approve",
  "transfer",
  "archive",
  "verify",
  "upgrade",
  "sync",
];
const OBJECTS = [
  "password",
  "invoice",
  "purchase order",
  "shipping address",
  "API key",
  "team workspace",
  "billing plan",
  "support ticket",
  "audit report",
  "payment method",
  "user profile",
  "project budget",
  "vendor contract",
  "expense claim",
  "delivery schedule",
  "tax form",
  "mailing list",
  "backup snapshot",
  "access badge",
  "warranty claim",
];
const CONTEXTS = [
  "on the mobile app",
  "from the admin console",
  "for a subsidiary",
  "after a merger",
  "in the EU region",
  "during onboarding",
  "with single sign-on",
  "for a suspended account",
  "before the fiscal year ends",
  "for a guest user",
  "in bulk",
  "via the API",
  "on a shared device",
  "while traveling",
  "for a closed project",
  "in the sandbox",
  "on the legacy portal",
  "for multiple currencies",
  "without admin rights",
  "after a failed payment",
  "in read-only mode",
  "for a large team",
  "with two-factor authentication",
  "from a spreadsheet",
  "on weekends",
  "in the partner portal",
  "for an archived vendor",
  "during an outage",
  "for a new hire",
  "after a password change",
  "in Canada",
  "in Japan",
  "for a nonprofit",
];
const QUESTION = [(a, o, c) => `How do I ${a} the ${o} ${c}?`, (a, o, c) => `Can I ${a} a ${o} ${c}?`];
const VARIANT = [
  (a, o, c) => `${a} ${o} ${c}`,
  (a, o, c) => `need help to ${a} my ${o} ${c}`,
  (a, o, c) => `is it possible to ${a} ${o} ${c}`,
  (a, o, c) => `steps to ${a} the ${o} ${c}`,
];
const PARAPHRASE = [(a, o, c) => `what's the way to ${a} our ${o} ${c}`, (a, o, c) => `I want to ${a} the ${o} ${c}, how?`];

/** n distinct FAQs (question, answer with a unique code, a tag, VARIANTS_PER_FAQ variants), the same for every run. */
export function generate(n) {
  const r = prng(2002);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const seen = new Set();
  const faqs = [];
  while (faqs.length < n) {
    const [a, o, c, q] = [pick(ACTIONS), pick(OBJECTS), pick(CONTEXTS), Math.floor(r() * QUESTION.length)];
    const key = `${a}|${o}|${c}|${q}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const code = `KB-${10000 + faqs.length}`;
    const start = Math.floor(r() * VARIANT.length);
    faqs.push({
      tuple: [a, o, c],
      code,
      question: QUESTION[q](a, o, c),
      answer: `To ${a} the ${o} ${c}, open the ${o} page, choose "${a}" and confirm. Reference ${code}; contact support if it fails.`,
      tags: [o.replaceAll(" ", "-").toLowerCase()],
      variants: Array.from({ length: VARIANTS_PER_FAQ }, (_, k) => VARIANT[(start + k) % VARIANT.length](a, o, c)),
    });
  }
  return faqs;
}

/** A tag per API client (one per tenant), so two tenants of one database never import the same id. */
const tags = new WeakMap();
const tagOf = (api) => tags.get(api) ?? tags.set(api, Math.random().toString(36).slice(2, 10)).get(api);

/**
 * Imports FAQs through POST /v1/faqs/import and returns their ids in order; throws unless every one
 * is stored and indexed. Each line keeps an id, as an export's lines do: the import's duplicate
 * check, which refuses a plain line asking what an earlier one asks, leaves such lines alone, and
 * the generated templates ("Can I verify a vendor contract …" / "… a new hire?") read as rewordings
 * of each other. A tag per tenant keeps ids apart from another tenant's in the same database.
 */
export async function importChunk(api, chunk) {
  const line = (f) =>
    JSON.stringify({ id: `${tagOf(api)}-${f.code}`, question: f.question, answer: f.answer, tags: f.tags, variants: f.variants });
  const { json } = await importFaqs(api, chunk.map(line).join("\n"));
  if (json.errors.length > 0 || json.counts.pendingIndex > 0)
    throw new Error(`import: ${JSON.stringify(json.counts)} ${JSON.stringify(json.errors[0])}`);
  return json.imported.map((x) => x.id);
}

/** Queries over the first `n` FAQs: half paraphrases with new wording, half exact codes. */
export function queriesFor(faqs, n, count) {
  const r = prng(77);
  return Array.from({ length: count }, (_, i) => {
    const target = Math.floor(r() * n);
    const [a, o, c] = faqs[target].tuple;
    return i % 2 === 0
      ? { kind: "paraphrase", target, text: PARAPHRASE[i % 4 === 0 ? 0 : 1](a, o, c) }
      : { kind: "code", target, text: faqs[target].code };
  });
}
