import { createExecutionContext, env, SELF } from "cloudflare:test";
import { createApp } from "../../src/app/app";
import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";

const BASE = "https://recall.test";

async function signIn(key: string) {
  const response = await SELF.fetch(`${BASE}/ui/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams({ key }),
    redirect: "manual",
  });
  const setCookie = response.headers.get("set-cookie") ?? "";
  return { response, setCookie, cookie: setCookie.split(";")[0]! };
}

async function page(path: string, cookie: string) {
  const response = await SELF.fetch(`${BASE}${path}`, { headers: { cookie }, redirect: "manual" });
  return { response, html: await response.text() };
}

function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error("no CSRF token in the page");
  return m[1]!;
}

describe("/ui sign-in", () => {
  it("sets an HttpOnly, SameSite=Strict, Secure, expiring cookie that does not contain the key", async () => {
    const { adminKey } = await newTenant();
    const { response, setCookie } = await signIn(adminKey);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/ui/shows");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Secure/i);
    expect(setCookie).toMatch(/Max-Age=28800/);
    expect(setCookie).not.toContain(adminKey);
    expect(setCookie).not.toContain(adminKey.slice(3, 20));
  });

  it("refuses a wrong key with 401 and the message next to the field, without a cookie", async () => {
    const { response, setCookie } = await signIn("rk_not_a_real_key");
    expect(response.status).toBe(401);
    expect(setCookie).toBe("");
    const html = await response.text();
    expect(html).toContain('id="api-key-error"');
    expect(html).toContain("not valid");
    expect(html).not.toContain("rk_not_a_real_key");
  });

  it("puts a Content-Security-Policy without inline script on every page", async () => {
    const { adminKey } = await newTenant();
    const { cookie } = await signIn(adminKey);
    for (const path of ["/ui", "/ui/shows", "/ui/shows/sec-csp"]) {
      const { response, html } = await page(path, cookie);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain("unsafe-inline");
      expect(html, path).not.toContain(adminKey);
    }
  });

  it("never renders the key in a page and redirects to sign-in without a session", async () => {
    const { clientKey } = await newTenant();
    const { cookie } = await signIn(clientKey);
    const { html } = await page("/ui/shows/sec-key", cookie);
    expect(html).toContain("Producer console");
    expect(html).not.toContain(clientKey);
    const anonymous = await page("/ui/shows", "");
    expect(anonymous.response.status).toBe(303);
    expect(anonymous.response.headers.get("location")).toBe("/ui");
  });

  it("signing out ends the session for every copy of the cookie", async () => {
    const { adminKey } = await newTenant();
    const { cookie } = await signIn(adminKey);
    const { html } = await page("/ui/shows", cookie);
    const out = await SELF.fetch(`${BASE}/ui/logout`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: BASE },
      body: new URLSearchParams({ _csrf: csrfOf(html) }),
      redirect: "manual",
    });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/recall_ui=;.*Max-Age=0/);
    const replayed = await page("/ui/shows", cookie);
    expect(replayed.response.status).toBe(303);
    expect(replayed.response.headers.get("location")).toBe("/ui");
  });

  it("answers a bad show id in the path with a 404 page, never a 500", async () => {
    const { adminKey } = await newTenant();
    const { cookie } = await signIn(adminKey);
    for (const path of ["/ui/shows/%3Cscript%3E", "/ui/shows/a%20b/live", `/ui/shows/${"x".repeat(65)}`]) {
      const { response, html } = await page(path, cookie);
      expect(response.status, path).toBe(404);
      expect(html, path).toContain("No such show");
      expect(html, path).not.toContain("<script>");
    }
  });

  it("opens nothing with a tampered cookie", async () => {
    const { adminKey } = await newTenant();
    const { cookie } = await signIn(adminKey);
    const [name, value] = cookie.split("=") as [string, string];
    // The second-to-last base64url character carries a full 6 bits (the last may carry padding bits
    // a decoder ignores), so replacing it with a different character always changes the ciphertext.
    const at = value.length - 2;
    const flipped = `${name}=${value.slice(0, at)}${value[at] === "A" ? "B" : "A"}${value.slice(at + 1)}`;
    const { response } = await page("/ui/shows", flipped);
    expect(response.status).toBe(303);
  });
});

describe("/ui CSRF", () => {
  it("refuses a form post without the CSRF token and accepts it with", async () => {
    const { adminKey } = await newTenant();
    const { cookie } = await signIn(adminKey);
    const post = (form: Record<string, string>) =>
      SELF.fetch(`${BASE}/ui/shows/sec-csrf/questions`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: BASE },
        body: new URLSearchParams(form),
        redirect: "manual",
      });
    const refused = await post({ text: "Is this forged?" });
    expect(refused.status).toBe(403);
    const { html } = await page("/ui/shows/sec-csrf", cookie);
    const accepted = await post({ text: "Is this genuine?", _csrf: csrfOf(html) });
    expect(accepted.status).toBe(303);
    const after = await page("/ui/shows/sec-csrf", cookie);
    expect(after.html).toContain("Is this genuine?");
    expect(after.html).not.toContain("Is this forged?");
  });

  it("refuses a post from another origin even with the token", async () => {
    const { adminKey } = await newTenant();
    const { cookie } = await signIn(adminKey);
    const { html } = await page("/ui/shows/sec-origin", cookie);
    const response = await SELF.fetch(`${BASE}/ui/shows/sec-origin/questions`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ text: "From elsewhere?", _csrf: csrfOf(html) }),
      redirect: "manual",
    });
    expect(response.status).toBe(403);
  });
});

describe("/ui without UI_SESSION_SECRET", () => {
  it("answers a clear 503 page naming the missing secret, not a 500", async () => {
    const app = createApp();
    for (const secret of [undefined, "too-short"]) {
      const response = await app.fetch(new Request(`${BASE}/ui`), { ...env, UI_SESSION_SECRET: secret } as Env, createExecutionContext());
      expect(response.status).toBe(503);
      expect(await response.text()).toContain("UI_SESSION_SECRET is not set");
    }
  });
});
