// `npm run decisions:api -- [--data ../shared/data]`
//
// The labelled product pairs (pairs/product: Recall's own domains) through the API of a local
// Worker (Miniflare with D1, KV, the show's Durable Object and the ticket queue's consumer; the real
// local embedder), one tenant per pair: record-time dedupe (ask a, then b), "asked before" (a is
// remembered, b asks), the show (a is ranked, then b) and the ticket pipeline (a is an FAQ, b a
// signed ticket). Each outcome is judged by the pair's label, as `npm run decisions` judges the
// offline decision, and compared pair by pair with what the offline measure predicts with the
// shipped tables. Writes docs/reports/decisions-api.md and results/decisions/api.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { importTs } from "../bench/support/bundle.mjs";
import { machineLine, when } from "../bench/support/report.mjs";
import { commit, machine, progress } from "../bench/support/stats.mjs";
import { createTenantKey, expectOk, startWorker } from "../bench/support/worker.mjs";
import { cosine, hasCjk } from "./calibration-fit.mjs";
import { actionMetrics } from "./decisions-fit.mjs";

const { values } = parseArgs({ options: { data: { type: "string", default: "../shared/data" } } });
const pairs = readFileSync(path.join(values.data, "pairs/product/pairs.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

const lib = await importTs(new URL("./entries/decisions.ts", import.meta.url));
const tables = lib.shippedScale("use-lite-512");
const { loadLocalModel } = await import("./local-embedder.mjs");
const model = await loadLocalModel();

/** What the offline measure predicts for the pair (b asked after a), with the shipped tables. */
async function predict(p) {
  const embeddable = !hasCjk(p.a) && !hasCjk(p.b);
  const [va, vb] = embeddable ? await model.embed([p.a, p.b]) : [null, null];
  const raw = embeddable ? cosine(Float32Array.from(va), Float32Array.from(vb)) : null;
  const decision = lib.decidePair(p.b, p.a, raw, tables);
  const calibrated = raw === null ? decision.evidence.sharedWords : lib.calibrate(raw, tables.calibration);
  return {
    dedupe: embeddable && decision.relation === "same",
    askedBefore: decision.relation !== "different",
    showBlock: decision.evidence.score > 0.8 && decision.evidence.contrasts.length === 0,
    ticketAutomatic: calibrated >= 0.85 && decision.relation === "same",
    reason: decision.reason,
  };
}

const worker = await startWorker({ helperEmbedder: false, ticketConsumer: true });
const signer = await importTs(new URL("../src/features/tickets/signature.ts", import.meta.url));

/** What the API did with the pair, on a tenant of its own. */
async function throughApi(p, n) {
  const { tenantId, key } = await createTenantKey(worker.db, `decisions-api ${n}`);
  const api = worker.client(key);
  const ask = (text) => expectOk(api.v1.questions.similar.$post({ json: { scope: "dedupe", text } }));
  await ask(p.a);
  const dedupe = (await ask(p.b)).json.recorded?.deduplicated === true;

  await expectOk(api.v1.memories.$post({ json: { scope: "asked", content: p.a, memoryType: "question" } }));
  const similar = (await expectOk(api.v1.questions.similar.$post({ json: { scope: "asked", text: p.b, record: false } }))).json;
  const askedBefore = similar.questions.some((q) => q.content === p.a);

  const show = api.v1.shows[":showId"];
  await expectOk(show.rank.$post({ param: { showId: "pairs" }, json: { candidates: [{ text: p.a, model: "m" }] } }));
  const ranked = (await expectOk(show.rank.$post({ param: { showId: "pairs" }, json: { candidates: [{ text: p.b, model: "m" }] } }))).json;
  const showBlock = ranked.filtered.length > 0;

  await expectOk(api.v1.faqs.$post({ json: { question: p.a, answer: "The answer our support team wrote for this question." } }));
  const { secret } = (await expectOk(api.v1.admin["webhook-secrets"].$post({ json: {} }))).json;
  const body = JSON.stringify({
    ticketId: `pair-${n}`,
    subject: "",
    question: p.b,
    answer: "Answered by support.",
    resolvedAt: "2026-11-01T10:00:00Z",
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const delivered = await expectOk(
    api.v1.webhooks.tickets.$post(
      {},
      {
        headers: {
          "content-type": "application/json",
          "x-recall-tenant": tenantId,
          "x-recall-timestamp": timestamp,
          "x-recall-signature": await signer.signPayload(secret, timestamp, body),
        },
        init: { body },
      },
    ),
  );
  let ticket = null;
  for (let tries = 0; tries < 200 && ticket?.status !== "decided"; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    ticket = (await expectOk(api.v1.tickets[":id"].$get({ param: { id: delivered.json.id } }))).json;
  }
  if (ticket?.status !== "decided") throw new Error(`ticket of pair ${n} was not decided: ${JSON.stringify(ticket)}`);
  const action = ticket.decision.action;
  return { dedupe, askedBefore, showBlock, ticketAutomatic: action === "SKIP" || action === "ADD_VARIANT", ticketAction: action };
}

const rows = [];
const bar = progress("pairs through the API", pairs.length);
try {
  for (const [n, p] of pairs.entries()) {
    rows.push({ ...p, y: p.label === "duplicate" ? 1 : 0, api: await throughApi(p, n), offline: await predict(p) });
    bar(n + 1);
  }
} finally {
  await worker.close();
}

const FEATURES = [
  ["dedupe", "record-time dedupe (merged)"],
  ["askedBefore", "asked before (shown)"],
  ["showBlock", "show block (filtered)"],
  ["ticketAutomatic", "ticket SKIP / ADD_VARIANT"],
];
const f = (x) => x.toFixed(3);
const lines = [
  "# Same question or not, through the API (product pairs)",
  "",
  "<!-- Generated by `npm run decisions:api` (scripts/decisions-api.mjs): do not edit by hand. -->",
  "",
  `Made by \`npm run decisions:api\` on ${when(new Date().toISOString())}, at commit \`${commit()}\`, on ${machineLine(machine())}: ${rows.length} labelled pairs of ../shared/data/pairs/product (${rows.filter((r) => r.y).length} the same question), each on a tenant of its own, through a local Worker with the real local embedder.`,
  "Precision: the share of actions that were right by the label (a merged, filtered or automatically decided pair is the same question); for asked before, `unrelated shown` counts pairs labelled unrelated that were shown. Agreement: pairs where the API did what the offline measure (`npm run decisions`, shipped tables) predicts.",
  "",
  "| feature | precision (API) | recall (API) | decided automatically (API) | wrong (API) | unrelated shown | agreement with offline |",
  "|---|---|---|---|---|---|---|",
];
const report = {};
for (const [key, name] of FEATURES) {
  const m = actionMetrics(rows, (r) => r.api[key]);
  const unrelated = rows.filter((r) => r.relation === "unrelated");
  const agree = rows.filter((r) => r.api[key] === r.offline[key]).length;
  report[key] = {
    ...m,
    unrelatedShown: unrelated.filter((r) => r.api[key]).length,
    unrelated: unrelated.length,
    agree,
    pairs: rows.length,
  };
  lines.push(
    `| ${name} | ${f(m.precision)} | ${f(m.recall)} | ${f(m.automatic)} | ${m.wrong} | ${report[key].unrelatedShown}/${unrelated.length} | ${agree}/${rows.length} |`,
  );
}
// Which pairs disagree, with their texts: in results/ only (the committed report must not copy ../shared/data's texts).
const disagreements = rows.flatMap((r) =>
  FEATURES.filter(([key]) => r.api[key] !== r.offline[key]).map(([key, name]) => ({
    feature: name,
    api: r.api[key],
    offline: r.offline[key],
    relation: r.relation,
    reason: r.offline.reason,
    a: r.a,
    b: r.b,
  })),
);
lines.push(
  "",
  `Pairs where the API and the offline prediction disagree: ${disagreements.length}, listed with their texts in results/decisions/api.json.`,
);
const text = lines.join("\n") + "\n";
console.log(text);
mkdirSync("results/decisions", { recursive: true });
writeFileSync("docs/reports/decisions-api.md", text);
writeFileSync("results/decisions/api.json", JSON.stringify({ at: new Date().toISOString(), report, disagreements, rows }, null, 2) + "\n");
console.log("wrote docs/reports/decisions-api.md and results/decisions/api.json");
