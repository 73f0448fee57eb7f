import { createHmac } from "node:crypto";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
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

/** Opens the staging queue (signed in) and waits for the ticket's row (the queue consumer decides within seconds; the page shows what is staged when it loads). */
async function stagedRow(page: Page, ticketId: string): Promise<Locator> {
  await page.getByRole("link", { name: "Staging queue", exact: true }).click();
  const row = page.getByTestId("staging-item").filter({ hasText: ticketId });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 1_000 });
    // A delivery the consumer must retry (the embedder slow on a busy machine) comes back after 10 s or more.
  }).toPass({ timeout: 45_000 });
  return row;
}

/** The review page of the ticket's staging item (through its row's Review link). */
async function reviewPage(page: Page, ticketId: string): Promise<void> {
  const row = await stagedRow(page, ticketId);
  await row.getByRole("link", { name: `Review ticket ${ticketId} with evidence` }).click();
  await expect(page.getByRole("heading", { name: `Ticket ${ticketId}` })).toBeVisible();
}

/** Letters only: a digit in a question would read as a code (the same-question decision's contrast). */
const word = () =>
  Array.from({ length: 6 }, () => "bcdfghjklmnpqrstvwxz"[Math.floor(Math.random() * 20)])
    .join("")
    .replace(/^./, (c) => c.toUpperCase());

test.describe("FAQ review desk", () => {
  test.describe.configure({ timeout: 90_000 });

  test("the queue is one line per item with counts on the tabs; a row opens, is edited and approved, and becomes an FAQ", async ({
    page,
  }) => {
    const ticketId = unique("E2E");
    const asked = "Can I pay my invoice with a bank transfer from abroad?";
    await postTicket(page.request, { ticketId, question: `Hello,\n${asked}\n\nBest,\nBo`, answer: "Yes, use the IBAN on the invoice." });
    await signIn(page, DEV_KEY);
    const row = await stagedRow(page, ticketId);
    await expect(row.locator("summary.queue-summary")).toContainText(asked);
    await expect(page.getByRole("navigation", { name: "Status" }).getByRole("link", { name: /pending \d+/ })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // Compact: the pending queue of a few items fits about a screen, not thousands of pixels.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator("html").evaluate((html) => html.scrollHeight)).toBeLessThan(1500);
    await screenshots(page, "staging-queue");

    // A fresh stack has no FAQ like it (NEW); against a reused one an earlier run's FAQ makes it a MERGE.
    const isNew = (await row.locator("summary.queue-summary .badge.NEW").count()) === 1;
    await row.locator("summary.queue-summary").click();
    await screenshots(page, "staging-queue-open");
    const question = `Can I pay an invoice by bank transfer from abroad (${ticketId})?`;
    const answer = "Yes: use the IBAN printed on the invoice; transfers from abroad take 2–4 business days.";
    if (isNew) await row.getByRole("textbox", { name: "Question" }).fill(question);
    await row.getByRole("textbox", { name: /Answer/ }).fill(answer);
    await row.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status")).toContainText(`Approved ticket ${ticketId}`);
    await page.getByRole("link", { name: "Open the FAQ" }).click();
    if (isNew) await expect(page.getByTestId("faq-question")).toHaveText(question);
    else await expect(page.getByTestId("variants")).toContainText(asked);
    await expect(page.getByTestId("faq-answer")).toHaveText(answer);
    await screenshots(page, "faq-page");
  });

  test("the review page shows the evidence of a NEW decision: the code that differs from the closest FAQ", async ({ page }) => {
    const ticketId = unique("E2E-code");
    const code = 100 + Math.floor(Math.random() * 800);
    const faq = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `What does error E${code} mean on the checkout page?`,
      answer: `E${code} means the card was declined by the bank.`,
    });
    expect(faq.status).toBe(201);
    const asked = `What does error E${code + 1} mean on the checkout page?`;
    await postTicket(page.request, { ticketId, question: asked, answer: `E${code + 1} means the payment timed out.` });
    await signIn(page, DEV_KEY);
    const row = await stagedRow(page, ticketId);
    await expect(row.locator("summary.queue-summary .badge.NEW")).toHaveCount(1);
    await expect(row).toContainText(`differs: e${code + 1} ≠ e${code}`);
    await reviewPage(page, ticketId);
    const evidence = page.getByTestId("evidence");
    await expect(evidence).toContainText(`e${code + 1} ≠ e${code}`);
    await expect(evidence).toContainText("another code or number");
    await expect(evidence).toContainText(`What does error E${code} mean on the checkout page?`);
    await expect(evidence).toContainText("unchanged");
    await screenshots(page, "staging-review-evidence");
  });

  test("the review page marks what cleaning removed by kind, shows it on request, and restores a piece into the question", async ({
    page,
  }) => {
    const ticketId = unique("E2E-pii");
    const topic = word();
    await postTicket(page.request, {
      ticketId,
      question: `Hi team,\n\nMy colleague Rebecca Stone, who has dyslexia, asks: can we export the ${topic} report as a PDF? Call me on +44 20 7946 0958.\n\nThanks,\nRavi Sharma | Procurement Lead | Northwind Ltd.`,
      answer: "Hi Ravi,\n\nYes: Reports → Export → PDF.\n\nCheers,\nSam",
    });
    await signIn(page, DEV_KEY);
    await reviewPage(page, ticketId);
    const card = page.locator("article.staging-card");
    await expect(card.locator("mark.removal").first()).toHaveText("name");
    await expect(card.getByText("Rebecca Stone")).toBeHidden();
    const removals = card.getByTestId("removals");
    await expect(removals.locator("summary")).toContainText("Removed before staging:");
    await expect(removals.locator("summary")).toContainText("phone");
    await expect(removals.locator("summary")).toContainText("health detail");
    await removals.locator("summary").click();
    await expect(card.getByText("Rebecca Stone")).toBeVisible();
    await screenshots(page, "staging-review-removals");
    await removals.getByRole("button", { name: "Restore in the question" }).first().click();
    await expect(card.getByLabel("Question")).toHaveValue(/Rebecca Stone/);
  });

  test("review one at a time with the keys: j/k move, r rejects with a reason, a approves, each with a notice", async ({ page }) => {
    const tag = word();
    const first = unique("E2E-keys-a");
    const second = unique("E2E-keys-b");
    await postTicket(page.request, {
      ticketId: first,
      question: `Do you deliver ${tag} parcels on Sundays?`,
      answer: "No, Monday to Saturday.",
    });
    await postTicket(page.request, {
      ticketId: second,
      question: `Can I rent a ${tag} locker for returns?`,
      answer: "Yes, at any station.",
    });
    await signIn(page, DEV_KEY);
    await stagedRow(page, first);
    await reviewPage(page, second);
    await expect(page.getByTestId("review-keys")).toContainText("a approve");
    await expect(page.getByTestId("review-position")).toContainText(/Item \d+ of \d+ pending/);
    await screenshots(page, "staging-review");

    // j and k follow the Next and Previous links (the queue holds the demo items too).
    const here = page.url();
    const next = page.locator("a[data-review-next]");
    const previous = page.locator("a[data-review-prev]");
    const hasNext = (await next.count()) === 1;
    const target = hasNext ? await next.getAttribute("href") : await previous.getAttribute("href");
    await page.keyboard.press(hasNext ? "j" : "k");
    await expect(page).toHaveURL(new RegExp(`${target}$`));
    await page.keyboard.press(hasNext ? "k" : "j");
    await expect(page).toHaveURL(here);

    // r opens the reject step with the cursor in its reason; Enter rejects; the next item follows with a notice.
    await page.keyboard.press("r");
    const reason = page.getByRole("textbox", { name: "Reason for rejecting" });
    await expect(reason).toBeFocused();
    await screenshots(page, "staging-review-reject");
    await page.keyboard.type("we do not rent lockers");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toContainText(`Rejected ticket ${second}: “we do not rent lockers”.`);
    await expect(page).not.toHaveURL(here);

    // a approves the item as it stands (the question edited first, then the focus leaves the field).
    await reviewPage(page, first);
    await page.getByRole("textbox", { name: "Question" }).fill(`Do you deliver ${tag} parcels on Sundays (${first})?`);
    await page.getByRole("heading", { level: 1 }).click();
    await page.keyboard.press("a");
    await expect(page.getByRole("status")).toContainText(`Approved ticket ${first}: created a new FAQ.`);
    await page.goto("/ui/staging?status=rejected");
    await expect(page.getByTestId("staging-item").filter({ hasText: second })).toBeVisible();
    await screenshots(page, "staging-rejected");
  });

  test("a NEW item the knowledge base answers since it was staged is flagged, and approving it is refused with the FAQ named", async ({
    page,
    guard,
  }) => {
    guard.allow(/\/ui\/staging\/[^/]+\/approve$/);
    const tag = word();
    const ticketId = unique("E2E-stale");
    const asked = `Where can I download my ${tag} invoices as PDF?`;
    await postTicket(page.request, { ticketId, question: asked, answer: "Settings → Billing → Invoices, then Download." });
    await signIn(page, DEV_KEY);
    const row = await stagedRow(page, ticketId);
    await expect(row.locator("summary.queue-summary .badge.NEW")).toHaveCount(1);
    // Meanwhile someone writes the FAQ by hand.
    const faq = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `Where can I download my ${tag} invoices as a PDF?`,
      answer: "Billing → Invoices → Download.",
    });
    expect(faq.status).toBe(201);
    await reviewPage(page, ticketId);
    await expect(page.getByTestId("kb-changed")).toContainText("would make a duplicate");
    await expect(page.getByTestId("evidence")).toContainText("changed");
    await screenshots(page, "staging-stale");

    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("alert").first()).toContainText("Not approved");
    await expect(page.getByRole("link", { name: `“Where can I download my ${tag} invoices as a PDF?”` })).toHaveAttribute(
      "href",
      `/ui/faqs/${faq.json.id}`,
    );
    await screenshots(page, "staging-duplicate");
    await page.getByRole("button", { name: "Reject as a duplicate" }).click();
    await expect(page.getByRole("status")).toContainText(`Rejected ticket ${ticketId}: “Duplicate of FAQ ${faq.json.id}`);
    const faqs = await apiCall(page.request, "GET", `/v1/faqs?q=${encodeURIComponent(tag)}`);
    expect(faqs.json.faqs).toHaveLength(1);
  });

  test("an edit makes a version, the diff shows it, and a rollback, confirmed, restores the old answer with a notice", async ({ page }) => {
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
    await expect(page.getByRole("status")).toContainText("Saved: this is version 2.");
    await expect(page.getByTestId("faq-answer")).toHaveText("Email support and we switch it off for you.");
    await expect(page.locator(".diff del").first()).toBeVisible();
    await expect(page.locator(".diff ins").first()).toBeVisible();
    await screenshots(page, "faq-versions");

    // The confirm step is a page that shows what the FAQ will say after the rollback.
    await page.getByRole("link", { name: "Roll back to version 1" }).click();
    await expect(page.getByRole("heading", { name: "Roll back to version 1?" })).toBeVisible();
    await expect(page.getByLabel("Answer after the rollback").locator("ins").first()).toContainText("Open Settings");
    await screenshots(page, "faq-rollback-confirm");
    await page.getByRole("button", { name: "Yes, roll back to v1" }).click();
    await expect(page.getByRole("status")).toContainText("Rolled back to the text of version 1, saved as version 3.");
    await expect(page.getByTestId("faq-answer")).toHaveText(original);
    await expect(page.getByTestId("versions")).toContainText("rollback");
  });

  test("search explains why each FAQ matched; variants and related links are added and removed, confirmed, each with a notice", async ({
    page,
    guard,
  }) => {
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
    await expect(page.getByRole("status")).toContainText("Added the phrasing “How can I get a new API key?”.");
    await expect(page.getByTestId("variants")).toContainText("How can I get a new API key?");
    // The same phrasing again: the API's 409 beside the field, the text kept.
    await page.getByLabel("Add a phrasing").fill("how can I get a NEW api key");
    await page.getByRole("button", { name: "Add variant" }).click();
    await expect(page.locator("#variant-text-error")).toContainText("already has that phrasing");
    await expect(page.getByLabel("Add a phrasing")).toHaveValue("how can I get a NEW api key");
    // Remove takes two steps: the first only opens the question.
    await page.getByLabel("Remove variant: How can I get a new API key?").click();
    await expect(page.getByTestId("variants")).toContainText("How can I get a new API key?");
    await screenshots(page, "faq-remove-confirm");
    await page.getByRole("button", { name: "Yes, remove it" }).click();
    await expect(page.getByRole("status")).toContainText("Removed the phrasing “How can I get a new API key?”.");
    await expect(page.getByTestId("variants")).not.toContainText("How can I get a new API key?");

    await page.getByLabel("Link another FAQ").selectOption(b.json.id);
    await page.getByLabel("Relationship type").selectOption("see_also");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await expect(page.getByRole("status")).toContainText(`Linked “Where do I find my API usage ${tag}?” as see also.`);
    const link = page.getByTestId("related").locator("li", { hasText: `Where do I find my API usage ${tag}?` });
    await expect(link).toContainText("see also · manual");
    await link.getByLabel(/Unlink/).click();
    await link.getByRole("button", { name: "Yes, unlink" }).click();
    await expect(page.getByRole("status")).toContainText(`Unlinked “Where do I find my API usage ${tag}?”.`);
    await expect(page.getByTestId("related")).not.toContainText("see also · manual");
    expect(a.status).toBe(201);
  });

  test("the FAQ usage overview: hits per day of all FAQs, most used, trending and never used", async ({ page }) => {
    const tag = word();
    const used = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `How do I book a ${tag} workshop?`,
      answer: "Open Workshops and pick a date.",
    });
    expect(used.status).toBe(201);
    const idle = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `Is the ${tag} lounge open at night?`,
      answer: "Until 22:00.",
    });
    expect(idle.status).toBe(201);
    // Searches from help-widget sessions: each records a hit on what it returned.
    for (const session of ["w1", "w2", "w3"]) {
      const search = await apiCall(page.request, "POST", "/v1/faqs/search", {
        query: `book a ${tag} workshop`,
        limit: 1,
        sessionId: `${tag}-${session}`,
      });
      expect(search.json.results[0].id).toBe(used.json.id);
    }
    await signIn(page, DEV_KEY);
    await page.getByRole("link", { name: "FAQ usage" }).click();
    await expect(page.getByRole("heading", { name: "FAQ usage", level: 1 })).toBeVisible();
    await expect(async () => {
      // Hits are written after the search's response: wait until they are in.
      await page.reload();
      await expect(page.getByTestId("most-used")).toContainText(`How do I book a ${tag} workshop?`, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId("usage-chart")).toBeVisible();
    await expect(page.getByTestId("trending").locator("tr", { hasText: `How do I book a ${tag} workshop?` })).toContainText("▲ 3 more");
    await expect(page.getByTestId("usage-kpis")).toContainText("never used");
    await expect(page.getByTestId("never-used").locator("li").first()).toBeVisible();
    await screenshots(page, "faq-usage");
  });

  test("an import skips a question already asked and links what it imports; the FAQ page shows the automatic link", async ({ page }) => {
    const tag = word();
    const existing = await apiCall(page.request, "POST", "/v1/faqs", {
      question: `How do I reset my ${tag} router?`,
      answer: "Hold the button.",
    });
    expect(existing.status).toBe(201);
    const lines = [
      { question: `How do I reset my ${tag} router?`, answer: "Hold reset for 10 seconds." },
      { question: `How do I update the ${tag} router firmware?`, answer: "Settings → Firmware → Update." },
      { question: `Where do I find the ${tag} router firmware version?`, answer: "Settings → About." },
    ];
    const response = await page.request.post("/v1/faqs/import", {
      headers: { authorization: `Bearer ${DEV_KEY}`, "content-type": "application/x-ndjson" },
      data: lines.map((l) => JSON.stringify(l)).join("\n"),
    });
    expect(response.status()).toBe(200);
    const report = await response.json();
    expect(report.errors).toEqual([
      expect.objectContaining({ line: 1, code: "DUPLICATE_QUESTION", duplicateOf: expect.objectContaining({ id: existing.json.id }) }),
    ]);
    expect(report.counts).toMatchObject({ imported: 2, duplicates: 1 });
    await signIn(page, DEV_KEY);
    await page.goto(`/ui/faqs/${report.imported[0].id}`);
    await expect(
      page.getByTestId("related").locator("li", { hasText: `Where do I find the ${tag} router firmware version?` }),
    ).toContainText("related · automatic");
    await screenshots(page, "faq-imported");
  });

  test("pipeline statistics list likely duplicate FAQs of the whole knowledge base, and the FAQ list renders", async ({ page }) => {
    const tag = word();
    for (const question of [`How do I cancel my ${tag} membership?`, `How can I cancel my ${tag} membership?`]) {
      const created = await apiCall(page.request, "POST", "/v1/faqs", { question, answer: "Account → Membership → Cancel." });
      expect(created.status).toBe(201);
    }
    await signIn(page, DEV_KEY);
    await page.getByRole("link", { name: "Pipeline stats" }).click();
    await expect(page.getByRole("heading", { name: /Ticket pipeline/ })).toBeVisible();
    await expect(page.getByTestId("pipeline-kpis")).toContainText("new");
    await expect(page.getByTestId("likely-duplicates")).toContainText(`cancel my ${tag} membership?`);
    await screenshots(page, "pipeline-stats");
    await page.getByRole("link", { name: "FAQs", exact: true }).click();
    await expect(page.getByRole("heading", { name: "All FAQs, newest first" })).toBeVisible();
    await screenshots(page, "faq-list");
    await page.goto("/ui/shows/demo-show");
    await expect(page.getByTestId("history")).toContainText("What evidence supports machine consciousness?");
    await screenshots(page, "console-demo");
  });

  test("a key over its rate limit gets a 429 page that says how long to wait", async ({ page, guard }) => {
    guard.allow(/\/ui\/faqs$/);
    // A key of its own: the dev key's window stays free for the other tests.
    const created = await apiCall(page.request, "POST", "/v1/admin/keys", { role: "client", name: unique("e2e-rate") });
    expect(created.status).toBe(201);
    await page.goto("/ui");
    await page.getByLabel("API key").fill(created.json.key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/ui\/shows/);
    // Off the console, whose live regions would poll with this key meanwhile.
    await page.goto("/");
    // The list page makes one API call: 600 a minute is the local stack's limit per key, in fixed windows, so a burst that
    // straddles a window's end may pass twice that before one is refused.
    let status = 200;
    for (let i = 0; i < 1_300 && status !== 429; i += 25) {
      const answers = await Promise.all(Array.from({ length: 25 }, () => page.request.get("/ui/faqs")));
      status = answers.some((r) => r.status() === 429) ? 429 : 200;
    }
    expect(status).toBe(429);
    const response = await page.goto("/ui/faqs");
    expect(response?.status()).toBe(429);
    const wait = Number(response?.headers()["retry-after"]);
    expect(wait).toBeGreaterThanOrEqual(1);
    await expect(page.getByRole("heading", { name: "Too many requests" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText(/Wait \d+ seconds?/);
    await screenshots(page, "rate-limited");
  });

  test("the bare address points to the screens, the API reference and the health check", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Recall" })).toBeVisible();
    await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
    await screenshots(page, "home");
    await page.getByRole("link", { name: "Screens" }).click();
    await expect(page.getByRole("heading", { name: "Sign in to Recall" })).toBeVisible();
  });
});
