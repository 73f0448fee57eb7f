import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { signPayload } from "../../src/features/tickets/signature";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { sign, standardPayload } from "../fixtures/helpdesk";
import { SELF_FIT_KB } from "../fixtures/self-fit-kb";
import { newTenant } from "../support/api";
import { clientWith } from "../support/app";
import { openApiChecker } from "../support/openapi";

/**
 * One representative valid request per documented operation; every answer must match what the
 * document says for its status (schema, no undocumented status), so a response that drifts from
 * the document fails here.
 */
describe("the documented responses", () => {
  it("match what every operation answers to a representative valid request", async () => {
    const { call, visited, all } = await openApiChecker();
    const tenant = await newTenant();
    const key = tenant.clientKey;
    const admin = tenant.adminKey;
    const results: { what: string; status: number; problems: string[] }[] = [];
    async function expectOk(method: string, path: string, init: Parameters<typeof call>[2] = {}, status?: number) {
      const res = await call(method, path, init);
      results.push({ what: `${method} ${path} → ${res.status}`, status: res.status, problems: res.problems });
      if (status !== undefined) expect(res.status, `${method} ${path}: ${JSON.stringify(res.json)}`).toBe(status);
      else expect(res.status, `${method} ${path}: ${JSON.stringify(res.json)}`).toBeLessThan(300);
      return res.json;
    }

    // Public
    await expectOk("GET", "/healthz");
    await expectOk("GET", "/openapi.json");
    await expectOk("GET", "/docs");
    await expectOk("GET", "/docs/try");

    // Memories, questions, context, sessions, query, cards
    const memory = await expectOk(
      "POST",
      "/v1/memories",
      { key, body: { scope: "oa", content: "I live in Austin", memoryType: "fact" } },
      201,
    );
    await expectOk(
      "POST",
      "/v1/memories",
      { key, body: { scope: "oa", content: "How do I deploy to Vercel?", memoryType: "question" } },
      201,
    );
    await expectOk(
      "POST",
      "/v1/memories",
      { key, body: { scope: "oa", content: "How do I deploy to Vercel?", memoryType: "question" } },
      200,
    );
    await expectOk("POST", "/v1/memories/search", { key, body: { scope: "oa", query: "where do I live?" } });
    await expectOk("GET", `/v1/memories/${memory.id}`, { key });
    await expectOk("POST", "/v1/questions/similar", { key, body: { scope: "oa", text: "How can I deploy on Vercel?", sessionId: "s-1" } });
    await expectOk("POST", "/v1/sessions/s-1/files", { key, body: { files: [{ path: "src/app.ts" }] } }, 201);
    await expectOk("POST", "/v1/context", { key, body: { scope: "oa", prompt: "how do I deploy this app to Vercel?", sessionId: "s-2" } });
    await expectOk("POST", "/v1/query/analyze", { key, body: { text: "我是什么用户?" } });
    await expectOk("POST", "/v1/similarity/explain", { key, body: { a: "What does error E500 mean?", b: "What does error E501 mean?" } });
    await expectOk("GET", "/v1/cards?scope=oa", { key });
    await expectOk("DELETE", `/v1/memories/${memory.id}`, { key }, 204);

    // Shows
    const rank = await expectOk("POST", "/v1/shows/oa-show/rank", {
      key,
      body: {
        candidates: [
          { text: "What evidence supports machine consciousness?", model: "gpt" },
          { text: "Can we prove AI systems are conscious?", model: "claude" },
        ],
        topN: 1,
      },
    });
    await expectOk("POST", "/v1/shows/oa-show/check", { key, body: { text: "Can we prove AI systems are conscious?" } });
    const added = await expectOk(
      "POST",
      "/v1/shows/oa-show/questions",
      { key, body: { questions: [{ text: "Who funds consciousness research?" }] } },
      201,
    );
    const repeated = await expectOk("POST", "/v1/shows/oa-show/rank", {
      key,
      body: { candidates: [{ text: "Who funds consciousness research?", model: "gpt" }] },
    });
    await expectOk("GET", "/v1/shows/oa-show/rankings?limit=5", { key });
    await expectOk("GET", `/v1/shows/oa-show/rankings/${repeated.rankingId}`, { key });
    await expectOk(
      "POST",
      "/v1/shows/oa-show/overrides",
      {
        key,
        body: {
          text: "Who funds consciousness research?",
          againstQuestionId: repeated.filtered[0].mostSimilarQuestionId,
          rankingId: repeated.rankingId,
        },
      },
      201,
    );
    await expectOk("POST", `/v1/shows/oa-show/questions/${added.ids[0]}/used`, { key, body: {} });
    await expectOk("POST", "/v1/shows/oa-show/refresh", { key, body: { questionIds: [rank.picks[0].id] } });
    await expectOk("GET", "/v1/shows/oa-show/history?minutes=60", { key });
    await expectOk("GET", "/v1/shows/oa-show/status", { key });
    await expectOk("PUT", "/v1/shows/oa-show/config", { key, body: { similarityThreshold: 0.82 } });
    await expectOk("POST", "/v1/shows/oa-show/end", { key });
    await expectOk("GET", "/v1/shows", { key });

    // FAQs
    const reset = await expectOk(
      "POST",
      "/v1/faqs",
      { key, body: { question: "How do I reset my password?", answer: "Use the reset link.", tags: ["account"] } },
      201,
    );
    const change = await expectOk(
      "POST",
      "/v1/faqs",
      { key, body: { question: "How do I change my password?", answer: "Settings → Security." } },
      201,
    );
    await expectOk("GET", "/v1/faqs?limit=5", { key });
    await expectOk("POST", "/v1/faqs/search", { key, body: { query: "reset password", sessionId: "s-1" } });
    for (const query of ["password help please", "password trouble"])
      expect((await clientWith((s) => s, key).v1.faqs.search.$post({ json: { query } })).status).toBe(200);
    await expectOk("POST", "/v1/faqs/import", {
      key,
      raw: `${JSON.stringify({ question: "Do you ship to Norway?", answer: "Yes.", variants: ["Can I order from Norway?"] })}\nnot json\n`,
      headers: { "content-type": "application/x-ndjson" },
    });
    await expectOk("GET", "/v1/faqs/export", { key });
    await expectOk("GET", "/v1/faqs/stats", { key });
    await expectOk("GET", "/v1/faqs/usage?days=7&limit=5", { key });
    const { suggestions } = await expectOk("GET", "/v1/faqs/suggestions", { key });
    expect(suggestions.length).toBeGreaterThanOrEqual(2);
    await expectOk("POST", `/v1/faqs/suggestions/${suggestions[0].id}/accept`, { key }, 201);
    await expectOk("POST", `/v1/faqs/suggestions/${suggestions[1].id}/dismiss`, { key, body: {} }, 204);
    await expectOk("GET", `/v1/faqs/${reset.id}`, { key });
    await expectOk("PATCH", `/v1/faqs/${reset.id}`, {
      key,
      body: { answer: "Use the reset link in the sign-in page.", changeReason: "clearer" },
    });
    const variant = await expectOk("POST", `/v1/faqs/${reset.id}/variants`, { key, body: { variantText: "I forgot my password" } }, 201);
    await expectOk("GET", `/v1/faqs/${reset.id}/variants`, { key });
    await expectOk("DELETE", `/v1/faqs/variants/${variant.id}`, { key }, 204);
    const link = await expectOk(
      "POST",
      `/v1/faqs/${reset.id}/related`,
      { key, body: { targetFaqId: change.id, relationshipType: "see_also" } },
      201,
    );
    await expectOk("GET", `/v1/faqs/${reset.id}/related`, { key });
    await expectOk("DELETE", `/v1/faqs/relationships/${link.relationshipId}`, { key }, 204);
    await expectOk("GET", `/v1/faqs/${reset.id}/versions`, { key });
    await expectOk("POST", `/v1/faqs/${reset.id}/rollback/1`, { key });
    await expectOk("GET", `/v1/faqs/${reset.id}/stats`, { key });
    await expectOk("GET", `/v1/faqs/${reset.id}/hits?days=7`, { key });
    await expectOk("DELETE", `/v1/faqs/${change.id}`, { key }, 204);

    // Admin
    const created = await expectOk("POST", "/v1/admin/keys", { key: admin, body: { role: "client", name: "contract" } }, 201);
    await expectOk("GET", "/v1/admin/keys", { key: admin });
    await expectOk("DELETE", `/v1/admin/keys/${created.id}`, { key: admin }, 204);
    await expectOk("POST", "/v1/admin/cards/backfill", { key: admin, body: {} });
    await expectOk("GET", "/v1/admin/metrics", { key: admin });
    await expectOk("POST", "/v1/admin/reembed", { key: admin }, 202);
    const secret = await expectOk("POST", "/v1/admin/webhook-secrets", { key: admin, body: {} }, 201);
    const rotated = await expectOk("POST", "/v1/admin/webhook-secrets/rotate", { key: admin, body: { overlapHours: 1 } }, 201);
    await expectOk("GET", "/v1/admin/webhook-secrets", { key: admin });
    await expectOk("DELETE", `/v1/admin/webhook-secrets/${secret.id}`, { key: admin }, 204);
    await expectOk("POST", "/v1/admin/fts/rebuild", { key: admin, body: { collection: "memories" } });
    await expectOk("GET", "/v1/admin/settings", { key: admin });
    await expectOk("PATCH", "/v1/admin/settings", { key: admin, body: { cards: { confidenceThreshold: 0.75 } } });

    // The deployment's tenants and databases: the operator's tenant (the dev key's, OPERATOR_TENANT in [env.test])
    const operator = env.RECALL_DEV_API_KEY!;
    const placed = await expectOk("POST", "/v1/admin/tenants", { key: operator, body: { name: "contract", database: "DB_1" } }, 201);
    await expectOk("GET", "/v1/admin/databases", { key: operator });
    await expectOk("POST", `/v1/admin/tenants/${placed.tenant.id}/move`, { key: operator, body: { to: "DB" } });
    await expectOk("GET", `/v1/admin/tenants/${placed.tenant.id}/move`, { key: operator });

    // Helpdesk connections and a helpdesk's own webhook
    const connection = await expectOk(
      "POST",
      "/v1/admin/helpdesk-connections",
      { key: admin, body: { provider: "standard", name: "contract" } },
      201,
    );
    await expectOk("GET", "/v1/admin/helpdesk-connections", { key: admin });
    const event = JSON.stringify(standardPayload("OA-HD-1"));
    const standardSigned = { ...(await sign.standard(connection.secret, event)), "content-type": "application/json" };
    await expectOk("POST", connection.webhookPath, { raw: event, headers: standardSigned }, 202);
    await expectOk("POST", connection.webhookPath, { raw: event, headers: standardSigned }, 200);
    await expectOk("GET", `/v1/admin/helpdesk-connections/${connection.id}/deliveries`, { key: admin });
    await expectOk("POST", `/v1/admin/helpdesk-connections/${connection.id}/rotate`, { key: admin, body: { overlapHours: 1 } }, 201);
    await expectOk("DELETE", `/v1/admin/helpdesk-connections/${connection.id}`, { key: admin }, 204);

    // Calibration: a tenant whose FAQs carry enough labels for a stored fit
    const fitter = (await newTenant("contract fit")).adminKey;
    const kb = SELF_FIT_KB.map((f) => JSON.stringify({ question: f.question, answer: "See the guide.", variants: f.variants })).join("\n");
    await expectOk("POST", "/v1/faqs/import", { key: fitter, raw: kb, headers: { "content-type": "application/x-ndjson" } });
    let fit = await expectOk("POST", "/v1/admin/calibration/fit", { key: fitter, body: { sources: ["faqs"] } });
    while (fit.status === "running")
      fit = await expectOk("POST", "/v1/admin/calibration/fit", { key: fitter, body: { sources: ["faqs"] } });
    expect(fit.status).toBe("stored");
    await expectOk("GET", "/v1/admin/calibration", { key: fitter });
    await expectOk("GET", "/v1/admin/calibration/versions", { key: fitter });
    await expectOk("GET", "/v1/admin/calibration/versions/1", { key: fitter });
    await expectOk("GET", "/v1/admin/calibration/compare?from=1&to=1", { key: fitter });
    await expectOk("POST", "/v1/admin/calibration/rollback/1", { key: fitter });
    await expectOk("GET", `/v1/admin/calibration/fits/${fit.id}`, { key: fitter });
    await expectOk("POST", "/v1/admin/calibration/pairs", {
      key: fitter,
      body: { pairs: [{ a: "reset my password", b: "I forgot my password", label: "same" }] },
    });
    await expectOk("DELETE", "/v1/admin/calibration/pairs", { key: fitter });

    // The Claude Code hook
    await expectOk(
      "POST",
      "/v1/hooks/claude-code?scope=oa",
      { key, body: { hook_event_name: "UserPromptSubmit", session_id: "s-9", prompt: "how do I deploy this app to Vercel?" } },
      200,
    );
    await expectOk(
      "POST",
      "/v1/hooks/claude-code",
      {
        key,
        body: { hook_event_name: "PostToolUse", session_id: "s-9", tool_name: "Read", tool_input: { file_path: "/repo/src/app.ts" } },
      },
      200,
    );

    // Webhook, tickets, staging, pipeline
    const raw = JSON.stringify({
      ticketId: "OA-1",
      question: "How long until I get my refund?",
      answer: "5-10 business days.",
      resolvedAt: "2026-11-01T10:00:00Z",
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signed = {
      "x-recall-tenant": tenant.tenantId,
      "x-recall-timestamp": timestamp,
      "x-recall-signature": await signPayload(rotated.secret, timestamp, raw),
      "content-type": "application/json",
    };
    const delivered = await expectOk("POST", "/v1/webhooks/tickets", { raw, headers: signed }, 202);
    await expectOk("POST", "/v1/webhooks/tickets", { raw, headers: signed }, 200);
    await expectOk("GET", "/v1/tickets", { key });
    await expectOk("GET", `/v1/tickets/${delivered.id}`, { key });
    await env.DB.prepare("UPDATE tickets SET status = 'dead_letter' WHERE id = ?").bind(delivered.id).run();
    await expectOk("POST", `/v1/tickets/${delivered.id}/requeue`, { key: admin }, 202);
    const staged = async (question: string) => {
      const { row } = await d1PipelineStore(env.DB).insertTicket(
        tenant.tenantId,
        {
          ticketId: `OA-${crypto.randomUUID()}`,
          subject: "",
          question,
          answer: "Yes, next-day delivery costs 9 EUR.",
          tags: [],
          resolvedAt: 0,
        },
        Date.now(),
      );
      await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
      return (await expectOk("GET", `/v1/tickets/${row.id}`, { key })).decision.stagingId as string;
    };
    const approveId = await staged("Do you offer express delivery?");
    const rejectId = await staged("Can I pay with bitcoin?");
    await expectOk("GET", "/v1/staging", { key });
    await expectOk("GET", `/v1/staging/${approveId}`, { key });
    await expectOk("GET", `/v1/staging/${approveId}/decision`, { key });
    await expectOk("POST", `/v1/staging/${approveId}/approve`, { key: admin, body: {} });
    await expectOk("POST", `/v1/staging/${rejectId}/reject`, { key: admin, body: { reason: "not ours" } });
    await expectOk("GET", "/v1/pipeline/stats?days=7", { key });
    await expectOk("POST", "/v1/pipeline/reclean", { key: admin });

    expect(results.filter((r) => r.problems.length > 0)).toEqual([]);
    expect(
      all.filter((id) => !visited.has(id)),
      "operations without a representative request",
    ).toEqual([]);
  });
});
