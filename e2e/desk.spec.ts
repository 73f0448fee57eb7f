import { createHmac } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { apiCall, DEV_KEY, expect, screenshots, signIn, test, unique } from "./support/fixtures";

/** Posts one resolved ticket to the signed webhook, as a help desk would. */
async function postTicket(request: APIRequestContext, ticket: Record<string, unknown>) {
  const secret = await apiCall(request, "POST", "/v1/admin/webhook-secrets", {});
  expect(secret.status).toBe(201);
  const body = JSON.stringify({ ...ticket, resolvedAt: new Date().toISOString(), source: "e2e" });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", secret.json.secret).update(`${timestamp}.${body}`).digest("hex");
  const response = await request.post("/v1/webhooks/tickets", {
    headers: {
      "content-type": "application/json",
      "x-recall-tenant": secret.json.tenantId,
      "x-recall-timestamp": timestamp,
      "x-recall-signature": `v1=${signature}`,
    },
    data: body,
  });
  expect(response.status()).toBe(202);
}

/** Signs in, opens the staging queue and waits for the ticket's card (the queue consumer decides within seconds; the page shows what is staged when it loads). */
async function stagedCard(page: Page, ticketId: string) {
  await signIn(page, DEV_KEY);
  await page.getByRole("link", { name: "Staging queue" }).click();
  const card = page.getByTestId("staging-item").filter({ hasText: ticketId });
  await expect(async () => {
    await page.reload();
    await expect(card).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  return card;
}

test.describe("FAQ review desk", () => {
  test("a ticket from the webhook shows up in staging, is edited and approved, and becomes an FAQ", async ({ page }) => {
    const ticketId = unique("E2E");
    const asked = "Can I pay my invoice with a bank transfer from abroad?";
    await postTicket(page.request, { ticketId, question: `Hello,\n${asked}\n\nBest,\nBo`, answer: "Yes, use the IBAN on the invoice." });
    const card = await stagedCard(page, ticketId);
    await expect(card).toContainText(asked);
    // A fresh stack has no FAQ like it (NEW); against a reused one an earlier run's FAQ makes it a MERGE.
    const isNew = (await card.locator(".badge.NEW").count()) === 1;
    await screenshots(page, "staging-queue");

    const question = `Can I pay an invoice by bank transfer from abroad (${ticketId})?`;
    const answer = "Yes: use the IBAN printed on the invoice; transfers from abroad take 2–4 business days.";
    if (isNew) await card.getByRole("textbox", { name: "Question" }).fill(question);
    await card.getByRole("textbox", { name: /Answer/ }).fill(answer);
    await card.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status")).toContainText(`Approved ticket ${ticketId}`);
    await page.getByRole("link", { name: "Open the FAQ" }).click();
    if (isNew) await expect(page.getByTestId("faq-question")).toHaveText(question);
    else await expect(page.getByTestId("variants")).toContainText(asked);
    await expect(page.getByTestId("faq-answer")).toHaveText(answer);
    await screenshots(page, "faq-page");
  });

  test("a ticket that differs from an FAQ by a code is staged as NEW, and the card says what differs", async ({ page }) => {
    const ticketId = unique("E2E-code");
    const code = 100 + Math.floor(Math.random() * 800);
    const faq = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `What does error E${code} mean on the checkout page?`,
      answer: `E${code} means the card was declined by the bank.`,
    });
    expect(faq.status).toBe(201);
    const asked = `What does error E${code + 1} mean on the checkout page?`;
    await postTicket(page.request, { ticketId, question: asked, answer: `E${code + 1} means the payment timed out.` });
    const card = await stagedCard(page, ticketId);
    await expect(card.locator(".badge.NEW")).toHaveCount(1);
    await expect(card).toContainText(`differs: e${code + 1} ≠ e${code}`);
    await card.scrollIntoViewIfNeeded();
    await screenshots(page, "staging-differs");
  });

  test("an edit makes a version, the diff shows it, and a rollback restores the old answer", async ({ page }) => {
    const original = "Open Settings, then Notifications, and switch off the weekly digest.";
    const created = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `How do I stop the weekly digest email ${unique("q")}?`,
      answer: original,
      tags: ["email"],
    });
    expect(created.status).toBe(201);
    await signIn(page, DEV_KEY);
    await page.goto(`/ui/faqs/${created.json.id}`);
    await page.getByText("Edit this FAQ").click();
    await page.getByRole("textbox", { name: "Answer", exact: true }).fill("Email support and we switch it off for you.");
    await page.getByLabel("Reason for the change (optional)").fill("support handles it now");
    await page.getByRole("button", { name: "Save a new version" }).click();
    await expect(page.getByTestId("faq-answer")).toHaveText("Email support and we switch it off for you.");
    await expect(page.locator(".diff del").first()).toBeVisible();
    await expect(page.locator(".diff ins").first()).toBeVisible();
    await screenshots(page, "faq-versions");

    await page.getByRole("button", { name: "Roll back to version 1" }).click();
    await expect(page.getByTestId("faq-answer")).toHaveText(original);
    await expect(page.getByTestId("versions")).toContainText("rollback");
  });

  test("search explains why each FAQ matched; variants and related links are added and removed", async ({ page, guard }) => {
    guard.allow(/\/ui\/faqs\/[^/]+\/variants$/);
    const tag = unique("t").toLowerCase();
    const a = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `How do I rotate my API token ${tag}?`,
      answer: "Settings → API → Rotate.",
      tags: [],
    });
    const b = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `Where do I find my API usage ${tag}?`,
      answer: "Settings → API → Usage.",
      tags: [],
    });
    await signIn(page, DEV_KEY);
    await page.goto("/ui/faqs");
    await page.getByLabel("Search FAQs (hybrid: words and meaning)").fill(`rotate api token ${tag}`);
    await page.getByRole("button", { name: "Search" }).click();
    const first = page.getByTestId("search-results").locator("li").first();
    await expect(first).toContainText(`How do I rotate my API token ${tag}?`);
    await expect(first).toContainText(/Matched by .*question or answer words/);
    await screenshots(page, "faq-search");

    await first.getByRole("link").click();
    await page.getByLabel("Add a phrasing").fill("How can I get a new API key?");
    await page.getByRole("button", { name: "Add variant" }).click();
    await expect(page.getByTestId("variants")).toContainText("How can I get a new API key?");
    // The same phrasing again: the API's 409 beside the field, the text kept.
    await page.getByLabel("Add a phrasing").fill("how can I get a NEW api key");
    await page.getByRole("button", { name: "Add variant" }).click();
    await expect(page.locator("#variant-text-error")).toContainText("already has that phrasing");
    await expect(page.getByLabel("Add a phrasing")).toHaveValue("how can I get a NEW api key");
    await page.getByRole("button", { name: "Remove variant: How can I get a new API key?" }).click();
    await expect(page.getByTestId("variants")).not.toContainText("How can I get a new API key?");

    await page.getByLabel("Link another FAQ").selectOption(b.json.id);
    await page.getByLabel("Relationship type").selectOption("see_also");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    const link = page.getByTestId("related").locator("li", { hasText: `Where do I find my API usage ${tag}?` });
    await expect(link).toContainText("see also · manual");
    await link.getByRole("button", { name: /Unlink/ }).click();
    await expect(page.getByTestId("related")).not.toContainText("see also · manual");
    expect(a.status).toBe(201);
  });

  test("pipeline statistics and the FAQ list render", async ({ page }) => {
    await signIn(page, DEV_KEY);
    await page.getByRole("link", { name: "Pipeline stats" }).click();
    await expect(page.getByRole("heading", { name: /Ticket pipeline/ })).toBeVisible();
    await expect(page.getByTestId("pipeline-kpis")).toContainText("new");
    await screenshots(page, "pipeline-stats");
    await page.getByRole("link", { name: "FAQs" }).click();
    await expect(page.getByRole("heading", { name: "All FAQs, newest first" })).toBeVisible();
    await screenshots(page, "faq-list");
    await page.goto("/ui/shows/demo-show");
    await expect(page.getByTestId("history")).toContainText("What evidence supports machine consciousness?");
    await screenshots(page, "console-demo");
  });
});
