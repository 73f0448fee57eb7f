import { describe, expect, it } from "vitest";
import { createLogger, errorCodeOf, errorFields, type LogLevel } from "../../src/log";

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
  it("give an error's class and message, the stack only when asked, and a typed code over the class name", () => {
    const error = new TypeError("bad");
    expect(errorFields(error)).toEqual({ error: { name: "TypeError", message: "bad" } });
    expect(errorFields(error, { stack: true }).error.stack).toContain("TypeError: bad");
    expect(errorFields("plain")).toEqual({ error: { message: "plain" } });
    expect(errorCodeOf(error)).toBe("TypeError");
    expect(errorCodeOf(Object.assign(new Error("x"), { code: "NOT_FOUND" }))).toBe("NOT_FOUND");
    expect(errorCodeOf(42)).toBe("unknown");
  });
});
