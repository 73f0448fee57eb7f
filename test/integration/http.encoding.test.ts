import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { connect, post } from "../support/helpdesk";
import { freshId, scenarios, send as sendSigned } from "../support/helpdesk-scenarios";
import { deliver, newWebhookSecret, ticket } from "../support/tickets";

/** Defects npm run fuzz found: text the API would have stored differently from what was sent. */
describe("request encoding", () => {
  it("answers 400 when a JSON body is not UTF-8, and stores nothing", async () => {
    const { clientKey } = await newTenant();
    const prefix = new TextEncoder().encode('{"scope":"enc","content":"caf');
    const body = Uint8Array.from([...prefix, 0xe9, ...new TextEncoder().encode('","memoryType":"fact"}')]); // Latin-1 é
    const response = await SELF.fetch("https://recall.test/v1/memories", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "BAD_REQUEST", message: "The request body is not valid UTF-8" } });
    const search = await SELF.fetch("https://recall.test/v1/memories/search", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body: JSON.stringify({ scope: "enc", query: "caf" }),
    });
    expect(((await search.json()) as { results: unknown[] }).results).toEqual([]);
  });

  it("answers 400 when a path is not valid percent-encoding, instead of using the raw text as an id", async () => {
    const { clientKey } = await newTenant();
    const response = await SELF.fetch("https://recall.test/v1/sessions/%ED%A0%80/files", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body: JSON.stringify({ files: [{ path: "a.ts" }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "BAD_REQUEST", message: "The request path is not valid percent-encoding" },
    });
    // A valid encoding still works.
    const fine = await SELF.fetch("https://recall.test/v1/sessions/s%C3%A9ance/files", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body: JSON.stringify({ files: [{ path: "a.ts" }] }),
    });
    expect(fine.status).toBe(201);
  });

  describe("an unpaired UTF-16 surrogate in a JSON string (\\ud800) is refused, not stored as U+FFFD", () => {
    /** JSON.stringify writes a lone surrogate as the escape `\ud800`: valid JSON syntax, but not text. */
    const LONE = "a \ud800 b";
    const refused = async (res: Parameters<typeof expectError>[0], path: string) => {
      const { error } = await expectError(res, 400, "VALIDATION_FAILED");
      expect(error.details).toEqual([{ path, message: expect.stringContaining("unpaired UTF-16 surrogate") }]);
    };

    it("on memories (content, category, a key of metadata), recorded questions and show questions", async () => {
      const { clientKey } = await newTenant();
      await refused(send("/v1/memories", { key: clientKey, body: { scope: "enc", content: LONE, memoryType: "fact" } }), "content");
      await refused(
        send("/v1/memories", { key: clientKey, body: { scope: "enc", content: "fine", memoryType: "fact", category: LONE } }),
        "category",
      );
      await refused(send("/v1/questions/similar", { key: clientKey, body: { scope: "enc", text: `How do I ${LONE}?` } }), "text");
      await refused(send("/v1/shows/enc-show/questions", { key: clientKey, body: { questions: [{ text: LONE }] } }), "questions.0.text");
      await refused(
        send("/v1/memories", { key: clientKey, body: { scope: "enc", content: "fine", memoryType: "fact", [LONE]: 1 } }),
        "(root)",
      );
      // Nothing was stored; a well-formed pair (an emoji) is still text.
      const search = await expectJson(apiClient(clientKey).v1.memories.search.$post({ json: { scope: "enc", query: "a b" } }), 200);
      expect(search.results).toEqual([]);
      const emoji = await expectJson(
        apiClient(clientKey).v1.memories.$post({ json: { scope: "enc", content: "cats 🐈 sleep", memoryType: "fact" } }),
        201,
      );
      expect(emoji.content).toBe("cats 🐈 sleep");
    });

    it("on API key names, helpdesk connection names and native webhook tickets", async () => {
      const tenant = await newTenant();
      await refused(send("/v1/admin/keys", { key: tenant.adminKey, body: { name: LONE } }), "name");
      await refused(send("/v1/admin/helpdesk-connections", { key: tenant.adminKey, body: { provider: "standard", name: LONE } }), "name");
      const secret = await newWebhookSecret(tenant);
      await refused(deliver(tenant, secret, ticket(`How do I ${LONE}?`, "Like this.")), "question");
      await refused(deliver(tenant, secret, { tickets: [ticket("How do I pay?", LONE)] }), "tickets.0.answer");
      const tickets = await expectJson(apiClient(tenant.adminKey).v1.tickets.$get({ query: {} }), 200);
      expect(tickets.tickets).toEqual([]);
    });

    it("on a line of the FAQ import (that line only) and in the Claude Code hook (200 {} with the code, nothing recorded)", async () => {
      const tenant = await newTenant();
      const api = apiClient(tenant.clientKey);
      const body = [
        { question: "How do I pay?", answer: "By card.", metadata: { owner: LONE } },
        { question: "How do I get a refund?", answer: "Ask support." },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n");
      const report = await expectJson(
        api.v1.faqs.import.$post({}, { headers: { "content-type": "application/x-ndjson" }, init: { body } }),
        200,
      );
      expect(report.imported.map((i) => i.line)).toEqual([2]);
      expect(report.errors).toMatchObject([{ line: 1, code: "VALIDATION_FAILED", details: [{ path: "metadata.owner" }] }]);

      const hook = await send("/v1/hooks/claude-code?scope=enc", {
        key: tenant.clientKey,
        body: { hook_event_name: "UserPromptSubmit", session_id: "s1", prompt: `How do I ${LONE}?` },
      });
      expect(hook.status).toBe(200);
      expect(hook.headers.get("x-recall-error")).toBe("VALIDATION_FAILED");
    });

    it("on a signed helpdesk delivery (after its signature check: an unsigned one is still a 401)", async () => {
      const tenant = await newTenant();
      const scenario = scenarios.find((s) => s.provider === "standard")!;
      const conn = await connect(tenant, "standard");
      const payload = scenario.solved(freshId()).at(-1) as Record<string, unknown>;
      await expectError(post(conn.path, JSON.stringify({ ...payload, note: LONE }), {}), 401);
      await refused(sendSigned(scenario, conn, conn.secret, { ...payload, note: LONE }), "note");
      const tickets = await expectJson(apiClient(tenant.adminKey).v1.tickets.$get({ query: {} }), 200);
      expect(tickets.tickets).toEqual([]);
    });
  });
});
