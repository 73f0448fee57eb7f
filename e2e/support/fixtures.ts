import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type APIRequestContext, type Page, test as base, expect } from "@playwright/test";

export { expect };

export const DEV_KEY = process.env.RECALL_DEV_API_KEY ?? "rk_dev_local_only_change_me";
export const SCREENSHOT_DIR = join(import.meta.dirname, "..", "..", "results", "e2e", "screenshots");
export const WIDTHS = [1280, 390] as const;

/** Fails the test on any browser console error, page error or failed request not declared expected. */
export class BrowserGuard {
  readonly problems: string[] = [];
  private readonly expected: RegExp[] = [];

  /** A response status the test provokes on purpose (a wrong key's 401, a validation 400). */
  allow(pattern: RegExp): void {
    this.expected.push(pattern);
  }

  watch(page: Page): void {
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      const url = message.location().url;
      if (/status of (400|401|403|409|429)/.test(text) && this.expected.some((p) => p.test(url))) return;
      this.problems.push(`console error: ${text} (${url})`);
    });
    page.on("pageerror", (error) => this.problems.push(`page error: ${error.message}`));
    page.on("requestfailed", (request) => {
      // A poll cut short by a navigation is not a failure of the page.
      if (request.failure()?.errorText === "net::ERR_ABORTED" && /\/live(\?|$)/.test(request.url())) return;
      this.problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ""}`);
    });
    page.on("response", (response) => {
      if (response.status() < 400) return;
      if (this.expected.some((p) => p.test(response.url()))) return;
      this.problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
    });
  }
}

export const test = base.extend<{ guard: BrowserGuard }>({
  guard: [
    async ({ page }, use) => {
      const guard = new BrowserGuard();
      guard.watch(page);
      await use(guard);
      expect(guard.problems, "browser console errors and failed requests").toEqual([]);
    },
    { auto: true },
  ],
});

export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto("/ui");
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Producer console", exact: true })).toBeVisible();
}

/**
 * Full-page screenshots at both widths: results/e2e/screenshots/<name>-<width>.png (git-ignored).
 * At each width the page must fit: no horizontal scrolling.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const scrollWidth = await page.locator("html").evaluate((html) => html.scrollWidth);
    expect(scrollWidth, `${name} is wider than the ${width} px viewport`).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/** The JSON API as the dev admin (setup steps a test does not click through). */
export async function apiCall(request: APIRequestContext, method: string, path: string, body?: unknown, key = DEV_KEY) {
  const response = await request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { data: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status(), json: text ? JSON.parse(text) : null };
}

export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
