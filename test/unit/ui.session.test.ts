import { describe, expect, it } from "vitest";
import { newSession, openSession, sameToken, sealSession, SESSION_TTL_MS, SessionSecretMissing } from "../../src/ui/session";

const SECRET = "unit-test-ui-session-secret-0123456789";

describe("ui session cookie", () => {
  it("opens what it sealed, before it expires", async () => {
    const session = newSession("rk_secret_key_value", 1_000);
    const sealed = await sealSession(session, SECRET);
    expect(sealed).not.toContain("rk_secret");
    expect(await openSession(sealed, SECRET, 2_000)).toEqual(session);
  });

  it("opens nothing once expired, under another secret, or tampered with", async () => {
    const sealed = await sealSession(newSession("rk_k", 0), SECRET);
    expect(await openSession(sealed, SECRET, SESSION_TTL_MS)).toBeNull();
    expect(await openSession(sealed, `${SECRET}-other`, 1)).toBeNull();
    const flipped = sealed.slice(0, 20) + (sealed[20] === "A" ? "B" : "A") + sealed.slice(21);
    expect(await openSession(flipped, SECRET, 1)).toBeNull();
    expect(await openSession("not base64!", SECRET, 1)).toBeNull();
    expect(await openSession(undefined, SECRET, 1)).toBeNull();
  });

  it("gives every session its own CSRF token and seals it differently each time", async () => {
    const a = newSession("rk_k", 0);
    const b = newSession("rk_k", 0);
    expect(a.csrf).not.toBe(b.csrf);
    expect(await sealSession(a, SECRET)).not.toBe(await sealSession(a, SECRET));
  });

  it("refuses to work without a secret of at least 32 characters", async () => {
    await expect(sealSession(newSession("rk_k", 0), undefined)).rejects.toBeInstanceOf(SessionSecretMissing);
    await expect(openSession("x", "short", 0)).rejects.toBeInstanceOf(SessionSecretMissing);
  });

  it("compares tokens exactly", () => {
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abc", "abd")).toBe(false);
    expect(sameToken("abc", "ab")).toBe(false);
  });
});
