import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("GET /", () => {
  it("answers a small page linking the screens, the API reference and the health check", async () => {
    const response = await SELF.fetch("https://recall.test/", { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    for (const href of ["/ui", "/docs", "/healthz", "/openapi.json"]) expect(html).toContain(`href="${href}"`);
    expect(html).not.toContain("<script");
  });

  it("answers the same links as JSON to a client that asks for JSON", async () => {
    const response = await SELF.fetch("https://recall.test/", { headers: { accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      service: "recall",
      links: { ui: "/ui", docs: "/docs", openapi: "/openapi.json", health: "/healthz" },
    });
  });

  it("keeps the 405 of a method it does not take, and HEAD works", async () => {
    const post = await SELF.fetch("https://recall.test/", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await SELF.fetch("https://recall.test/", { method: "HEAD" })).status).toBe(200);
  });
});
