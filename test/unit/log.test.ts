import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/platform/observe/config-error";
import { createLogger, errorCodeOf, errorFields, type LogLevel } from "../../src/platform/observe/log";

function captured() {
  const lines: { level: LogLevel; json: Record<string, unknown> }[] = [];
  const log = createLogger({ requestId: "req-1" }, (level, line) =>
    lines.push({ level, json: JSON.parse(line) as Record<string, unknown> }),
  );
  return { lines, log };
}

describe("createLogger", () => {
  it("writes one JSON object per line with time, level, event, the bound fields and the event's fields", () => {
    const { lines, log } = captured();
    log.info("context.built", { tokens: 120 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe("info");
    expect(lines[0]!.json).toEqual({ time: expect.any(String), level: "info", event: "context.built", requestId: "req-1", tokens: 120 });
    expect(new Date(lines[0]!.json.time as string).toISOString()).toBe(lines[0]!.json.time);
  });

  it("binds more fields with with(), leaving the parent logger unchanged", () => {
    const { lines, log } = captured();
    const tenantLog = log.with({ tenant: "t_1" });
    tenantLog.warn("search_degraded", { part: "embeddings" });
    log.error("unhandled_error");
    expect(lines.map((l) => [l.level, l.json.tenant])).toEqual([
      ["warn", "t_1"],
      ["error", undefined],
    ]);
  });

  it("redacts fields that name a secret, a key, a token, a cookie or a body, at any depth, whatever the caller passes", () => {
    const { lines, log } = captured();
    log.info("oops", {
      authorization: "Bearer rk_live_abc",
      apiKey: "rk_live_abc",
      key: "rk_live_abc",
      secret: "whsec_abc",
      nested: { webhookSecret: "whsec_abc", body: '{"content":"private"}', token: "t0k", cookie: "s=1" },
      raw_body: "{}",
      SECRETS_KEK: "k1:AAAA",
      tokens: 42,
      keyId: "key_1",
      secretId: "whs_1",
      tokenBudget: 500,
    });
    const line = JSON.stringify(lines[0]!.json);
    expect(line).not.toMatch(/rk_live_abc|whsec_abc|private|t0k|s=1|AAAA/);
    expect(lines[0]!.json).toMatchObject({
      tokens: 42,
      keyId: "key_1",
      secretId: "whs_1",
      tokenBudget: 500,
      apiKey: "[redacted]",
      raw_body: "[redacted]",
      SECRETS_KEK: "[redacted]",
      nested: { body: "[redacted]", webhookSecret: "[redacted]" },
    });
  });
});

describe("errorFields and errorCodeOf", () => {
  it("give an error's class and code, never its message, the stack's function names only when asked, and a typed code over the class name", () => {
    function failingStep(): TypeError {
      return new TypeError("bad: customer text");
    }
    const error = failingStep();
    expect(errorFields(error)).toEqual({ error: { name: "TypeError", code: "TypeError" } });
    const { at } = errorFields(error, { stack: true }).error as { at: string[] };
    expect(at[0]).toBe("failingStep");
    expect(JSON.stringify(at)).not.toMatch(/customer|\.ts:|\//);
    expect((errorFields(new Error(), { stack: true }).error as { at: string[] }).at.length).toBeGreaterThan(0);
    expect(errorFields("plain")).toEqual({ error: { name: "(thrown string)" } });
    expect(errorCodeOf(error)).toBe("TypeError");
    expect(errorCodeOf(Object.assign(new Error("x"), { code: "NOT_FOUND" }))).toBe("NOT_FOUND");
    expect(errorCodeOf(Object.assign(new Error("x"), { code: "not a code: it has spaces" }))).toBe("Error");
    expect(errorCodeOf(42)).toBe("unknown");
  });

  it("follow the causes by class and code: D1's kind and SQLite code, never D1's text or a query's parameters", () => {
    class DrizzleQueryError extends Error {}
    const d1 = new Error('D1_ERROR: fts5: syntax error near "zebra-4711": SQLITE_ERROR');
    const wrapped = new DrizzleQueryError("Failed query: select * from faqs_fts where faqs_fts match ?\nparams: zebra-4711", { cause: d1 });
    const fields = errorFields(wrapped, { stack: true });
    expect(fields.error).toMatchObject({
      name: "DrizzleQueryError",
      code: "DrizzleQueryError",
      cause: { name: "Error", code: "D1_ERROR/SQLITE_ERROR" },
    });
    expect(JSON.stringify(fields)).not.toMatch(/zebra|select|params|fts5/);
  });

  it("keep the message of a class that says it is fixed text (a configuration error)", () => {
    expect(errorFields(new ConfigError("EMBEDDER=local-http needs EMBEDDER_URL")).error).toEqual({
      name: "ConfigError",
      code: "ConfigError",
      message: "EMBEDDER=local-http needs EMBEDDER_URL",
    });
  });
});
