/**
 * The structured log as an operator reads it: one JSON access line per request (route pattern,
 * status, duration, tenant, error code), the same request id on every line a request writes, job
 * lines for the cron and the queue consumer, and never a key, a secret or a body.
 */
import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  runDurableObjectAlarm,
  waitOnExecutionContext,
} from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app/app";
import { parseIoServerTiming } from "../../src/platform/observe/io-depth";
import { createServices } from "../../src/app/services";
import { type Services } from "../../src/platform/ports/services";
import { consumeTickets } from "../../src/features/tickets/consume";
import { RETENTION_CRON, runCron } from "../../src/app/cron";
import { signPayload } from "../../src/features/tickets/signature";
import { newTenant } from "../support/api";
import { newWebhookSecret } from "../support/tickets";
import { showClient } from "../support/shows";
import { systemClock } from "../../src/core/base/clock";

type Line = Record<string, any>;
let lines: Line[] = [];
let raw: string[] = [];

beforeEach(() => {
  lines = [];
  raw = [];
  for (const method of ["log", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      const text = args.map(String).join(" ");
      raw.push(text);
      try {
        lines.push(JSON.parse(text) as Line);
      } catch {
        lines.push({ unstructured: text });
      }
    });
  }
});
afterEach(() => vi.restoreAllMocks());

async function send(
  path: string,
  init: { key?: string; body?: unknown; method?: string } = {},
  override: (s: Services) => Services = (s) => s,
) {
  const app = createApp({ services: (e) => override(createServices(e)) });
  const ctx = createExecutionContext();
  const headers: Record<string, string> = init.key ? { authorization: `Bearer ${init.key}` } : {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await app.fetch(
    new Request(`https://recall.test${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const accessLines = () => lines.filter((l) => l.event === "request");

describe("access log", () => {
  it("writes one info line for a success with the route pattern (not the path), method, status, duration and tenant", async () => {
    const tenant = await newTenant();
    const content = "My private note: the vault code is 4711";
    const created = await send("/v1/memories", { key: tenant.clientKey, body: { scope: "user:log-1", content, memoryType: "fact" } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    lines = [];
    expect((await send(`/v1/memories/${id}`, { key: tenant.clientKey })).status).toBe(200);

    expect(accessLines()).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        level: "info",
        event: "request",
        requestId: expect.any(String),
        tenant: tenant.tenantId,
        route: "/v1/memories/:id",
        method: "GET",
        status: 200,
        durationMs: expect.any(Number),
        // The key was seen a moment ago: one D1 read, the memory's row.
        io: { d1: 1, kv: 0, vec: 0, ai: 0, do: 0, q: 0, seq: 1 },
      },
    ]);
    expect(lines.every((l) => !("unstructured" in l))).toBe(true);
  });

  it("answers the line's duration as Server-Timing `app` (after a route's own spans), errors included", async () => {
    const tenant = await newTenant();
    const search = await send("/v1/faqs/search", { key: tenant.clientKey, body: { query: "reset my password" } });
    expect(search.status).toBe(200);
    const bad = await send("/v1/faqs/search", { key: tenant.clientKey, body: { query: "" } });
    expect(bad.status).toBe(400);

    const spans = (r: Response) =>
      (r.headers.get("server-timing") ?? "").split(",").map((p) => [p.trim().split(";")[0], /;dur=([\d.]+)/.exec(p)?.[1]] as const);
    expect(spans(search).map(([name]) => name)).toEqual(["embed", "lists", "rows", "search", "io", "app"]);
    expect(spans(bad).map(([name]) => name)).toEqual(["io", "app"]);
    const [searchLine, badLine] = accessLines();
    expect(Number(spans(search).at(-1)![1])).toBe(searchLine!.durationMs);
    expect(Number(spans(bad).at(-1)![1])).toBe(badLine!.durationMs);
  });

  it("writes the request's round trips (the `io` of Server-Timing) into its line, those of in-process calls included", async () => {
    const tenant = await newTenant();
    const prompt = { hook_event_name: "UserPromptSubmit", session_id: "log-io", prompt: "How do I rotate the signing key?" };
    const hooked = await send("/v1/hooks/claude-code?scope=user:log-io", { key: tenant.clientKey, body: prompt });
    expect(hooked.status).toBe(200);
    const io = parseIoServerTiming(hooked.headers.get("server-timing"));
    // The hook's line, and the line of the /v1/context call it made in-process.
    const [inner, outer] = accessLines();
    expect(inner).toMatchObject({ route: "/v1/context", io: expect.objectContaining({ seq: expect.any(Number) }) });
    expect(outer).toMatchObject({ route: "/v1/hooks/claude-code", io });
    // The hook's key check and everything /v1/context did: the outer line counts at least the inner one's calls.
    expect(outer!.io.d1).toBeGreaterThanOrEqual(inner!.io.d1);
    expect(outer!.io.ai).toBe(1);
  });

  it("writes a warn line for a 4xx with the envelope's code, and carries the tenant only once the key is known", async () => {
    const tenant = await newTenant();
    const bad = await send("/v1/memories", { key: tenant.clientKey, body: { scope: "user:log-2", content: "", memoryType: "fact" } });
    expect(bad.status).toBe(400);
    const unauthorized = await send("/v1/memories/mem_nope", { key: "rk_not_a_real_key_at_all" });
    expect(unauthorized.status).toBe(401);
    const missing = await send("/v1/no-such-route", { key: tenant.clientKey });
    expect(missing.status).toBe(404);

    expect(accessLines()).toEqual([
      expect.objectContaining({
        level: "warn",
        route: "/v1/memories",
        method: "POST",
        status: 400,
        errorCode: "VALIDATION_FAILED",
        tenant: tenant.tenantId,
      }),
      expect.objectContaining({
        level: "warn",
        route: "/v1/memories/:id",
        method: "GET",
        status: 401,
        errorCode: "UNAUTHORIZED",
        tenant: null,
      }),
      expect.objectContaining({ level: "warn", route: null, status: 404, errorCode: "NOT_FOUND" }),
    ]);
    const body = (await bad.json()) as { error: { requestId: string } };
    expect(accessLines()[0]!.requestId).toBe(body.error.requestId);
  });

  it("writes an error line for a 5xx, and the unexpected error (class, code, its stack's function names) under the same request id, never in the response", async () => {
    const tenant = await newTenant();
    const broken = (s: Services): Services => ({
      ...s,
      embedder: { ...s.embedder, canEmbed: () => true, embed: () => Promise.reject(new Error("embedder exploded at 0xdead")) },
    });
    const response = await send(
      "/v1/shows/log-show/questions",
      { key: tenant.clientKey, body: { questions: [{ text: "Where is the tour this year?" }] } },
      broken,
    );
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("0xdead");

    const failure = lines.find((l) => l.event === "unhandled_error");
    const access = accessLines()[0];
    expect(access).toMatchObject({
      level: "error",
      route: "/v1/shows/:showId/questions",
      method: "POST",
      status: 500,
      errorCode: "INTERNAL",
      tenant: tenant.tenantId,
    });
    expect(failure).toMatchObject({
      level: "error",
      requestId: access!.requestId,
      tenant: tenant.tenantId,
      error: { name: "Error", code: "Error", at: expect.arrayContaining([expect.any(String)]) },
    });
    // The message can carry customer text (see "error lines" below): only the code's own classes may log theirs.
    expect(raw.join("\n")).not.toContain("0xdead");
  });

  it("never writes an API key, an Authorization header, a new key or a request body", async () => {
    const tenant = await newTenant();
    const content = "Confidential: my passport number is X1234567";
    await send("/v1/memories", { key: tenant.clientKey, body: { scope: "user:log-3", content, memoryType: "fact" } });
    await send("/v1/memories/search", { key: tenant.clientKey, body: { scope: "user:log-3", query: "passport number X1234567" } });
    const minted = await send("/v1/admin/keys", { key: tenant.adminKey, body: { role: "client", name: "ci" } });
    const { key: newKey } = (await minted.json()) as { key: string };
    await send("/v1/memories/search", { key: "rk_wrong_secret_key_value", body: { scope: "user:log-3", query: "x" } });

    expect(raw.length).toBeGreaterThanOrEqual(4);
    const all = raw.join("\n");
    for (const secret of [tenant.clientKey, tenant.adminKey, newKey, "rk_wrong_secret_key_value", "X1234567", "Bearer"])
      expect(all).not.toContain(secret);
  });
});

describe("error lines", () => {
  it("carry no customer text and no SQL when a D1 query fails: the error's class and codes, its causes', function names (issue 34)", async () => {
    // Before: the unhandled_error line carried Drizzle's message, "Failed query: insert into "tickets" … params: …"
    // with the ticket's question in it, D1's own text and a stack of file paths.
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const marker = "zebra-4711-quokka";
    // A real D1 failure: the ticket insert names a table that does not exist; Drizzle wraps it with the query and its parameters.
    const brokenInsert = (s: Services): Services => ({
      ...s,
      db: new Proxy(s.db, {
        get: (db, name) =>
          name === "prepare"
            ? (query: string) => db.prepare(query.replace('insert into "tickets"', 'insert into "tickets_gone"'))
            : Reflect.get(db, name),
      }),
    });
    const body = JSON.stringify({
      ticketId: `T-${marker}`,
      question: `Why does my ${marker} blink twice?`,
      answer: `Reset the ${marker}.`,
      resolvedAt: "2026-11-01T10:00:00Z",
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const app = createApp({ services: (e) => brokenInsert(createServices(e)) });
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request("https://recall.test/v1/webhooks/tickets", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-recall-tenant": tenant.tenantId,
          "x-recall-timestamp": timestamp,
          "x-recall-signature": await signPayload(secret, timestamp, body),
        },
        body,
      }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(500);

    const failure = lines.find((l) => l.event === "unhandled_error");
    expect(failure, raw.join("\n")).toMatchObject({
      level: "error",
      error: { name: "DrizzleQueryError", code: "DrizzleQueryError", cause: { name: "Error", code: "D1_ERROR/SQLITE_ERROR" } },
    });
    expect(failure!.error.message).toBeUndefined();
    expect(failure!.error.at).toEqual(expect.arrayContaining([expect.stringContaining("insertTicket")]));
    const all = raw.join("\n");
    expect(all).not.toContain(marker);
    expect(all).not.toMatch(/insert into|tickets_gone|no such table|params:/i);
    expect(all).not.toMatch(/\.(?:ts|js|mjs):\d+|file:\/\/|\/src\//);
  });
});

describe("job logs", () => {
  it("cron: one line per task with its duration, a failure with its error code, and a closing line, all under one run id", async () => {
    const services = createServices(env);
    const failingDb = new Proxy(env.DB, {
      get: (target, name) =>
        name === "prepare" || name === "batch"
          ? () => {
              throw new Error("D1 unavailable");
            }
          : Reflect.get(target, name),
    });
    await runCron(RETENTION_CRON, { ...services, db: failingDb as D1Database });
    const task = lines.filter((l) => l.event === "cron_task_failed");
    const done = lines.find((l) => l.event === "cron_done");
    expect(task.length).toBeGreaterThan(0);
    expect(task[0]).toMatchObject({
      level: "error",
      job: "cron",
      cron: RETENTION_CRON,
      task: expect.any(String),
      durationMs: expect.any(Number),
      errorCode: expect.any(String),
    });
    expect(done).toMatchObject({ level: "info", job: "cron", cron: RETENTION_CRON, durationMs: expect.any(Number) });
    expect(new Set(lines.filter((l) => l.job === "cron").map((l) => l.runId)).size).toBe(1);

    lines = [];
    await runCron(RETENTION_CRON, createServices(env));
    expect(lines.filter((l) => l.event === "cron_task_done").map((l) => l.task)).toEqual([
      "showArchive",
      "faqVersions",
      "latencySamples",
      "webhookDeliveries",
      "calibrationRefits",
      "ticketTextRecleaned",
      "duplicatesJudged",
    ]);
  });

  it("queue consumer: a line per message with the message id, tenant, outcome and duration; a malformed message is a warning", async () => {
    const tenant = await newTenant();
    const batch = createMessageBatch("recall-tickets", [
      { id: "m-missing", attempts: 1, timestamp: new Date(), body: { tenantId: tenant.tenantId, ticketRowId: "tkt_gone" } },
      { id: "m-bad", attempts: 1, timestamp: new Date(), body: { nonsense: true } },
    ]);
    const ctx = createExecutionContext();
    await consumeTickets(batch, createServices(env));
    await getQueueResult(batch, ctx);
    expect(lines).toEqual([
      expect.objectContaining({
        level: "info",
        event: "ticket_processed",
        job: "queue",
        queue: "recall-tickets",
        messageId: "m-missing",
        tenant: tenant.tenantId,
        kind: "missing",
        durationMs: expect.any(Number),
      }),
      expect.objectContaining({ level: "warn", event: "ticket_message_malformed", job: "queue", messageId: "m-bad" }),
    ]);
  });

  it("show Durable Object: the retention alarm writes one line bound to the object", async () => {
    const { clientKey, tenantId } = await newTenant();
    await showClient(clientKey, systemClock)
      .show("log-alarm")
      .addQuestions({ questions: [{ text: "Who painted the ceiling?" }] });
    lines = [];
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:log-alarm`));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(lines.filter((l) => l.event === "show_retention")).toEqual([
      expect.objectContaining({
        level: "info",
        job: "durable_object",
        object: "ShowMemory",
        objectId: stub.id.toString(),
        deleted: 0,
        durationMs: expect.any(Number),
      }),
    ]);
  });
});
