import { apiCall, DEV_KEY, expect, screenshots, signIn, test, unique } from "./support/fixtures";

test.describe("producer console", () => {
  test("ranks a batch, warns about a near-duplicate, marks a pick used and the history shows it", async ({ page }) => {
    const show = unique("e2e-rank");
    await apiCall(page.request, "POST", `/v1/shows/${show}/questions`, {
      questions: [{ text: "What evidence supports machine consciousness?", model: "gpt-4o" }],
    });
    await signIn(page, DEV_KEY);
    await page.getByLabel("Show id").fill(show);
    await page.getByRole("button", { name: "Open console" }).click();
    await expect(page.getByRole("heading", { name: `Producer console · ${show}` })).toBeVisible();
    await expect(page.getByTestId("questions-in-memory")).toHaveText("1");

    await page.getByLabel("Candidates, one per line").fill(
      [
        // A rewording of the question asked (the show's repeat decision filters it); a different
        // question on the same topic ("Can we prove AI systems are conscious?") would pass (issue 14).
        "claude | What is the evidence that supports consciousness in machines?",
        "gemini | Who should be liable when an autonomous car crashes?",
        "gpt-4o | What would a fair tax on robots look like?",
      ].join("\n"),
    );
    await page.getByRole("button", { name: "Rank", exact: true }).click();
    const filtered = page.getByTestId("filtered");
    await expect(filtered).toHaveCount(1);
    await expect(filtered).toContainText("What is the evidence that supports consciousness in machines?");
    await expect(filtered).toContainText(/\d+% similar to “What evidence supports machine consciousness\?” asked (just now|\d+ min ago)/);
    // The same-question decision's evidence line (issue 30): why the show took it for a repeat.
    await expect(filtered.getByTestId("evidence")).toContainText(/^Decision: /);
    const picks = page.getByTestId("pick");
    await expect(picks).toHaveCount(2);
    await expect(picks.first()).toContainText(/Novelty: \d+%/);
    await expect(picks.first()).toContainText(/Score: \d+%/);
    await screenshots(page, "console-ranked");

    const first = picks.first();
    const text = (await first.locator("blockquote").innerText()).replace(/[“”]/g, "");
    await first.getByRole("button", { name: "Mark used" }).click();
    await expect(first.getByRole("button", { name: "✓ Marked used" })).toBeDisabled();
    const row = page.getByTestId("history").locator("li", { hasText: text });
    await expect(row.locator(".used.yes")).toBeVisible();
    await expect(page.getByTestId("questions-in-memory")).toHaveText("3");
  });

  test("another client's question appears in an open console within 5 s", async ({ page, browser }) => {
    const show = unique("e2e-live");
    await signIn(page, DEV_KEY);
    await page.goto(`/ui/shows/${show}`);
    await expect(page.getByText("No questions yet in this period.")).toBeVisible();

    const other = await browser.newContext();
    const second = await other.newPage();
    await signIn(second, DEV_KEY);
    await second.goto(`/ui/shows/${show}`);
    await second.getByLabel("Add a question the host asked").fill("How do octopuses dream?");
    await second.getByRole("button", { name: "Add to memory" }).click();
    await expect(second.getByTestId("history")).toContainText("How do octopuses dream?");
    await other.close();

    await expect(page.getByTestId("history")).toContainText("How do octopuses dream?", { timeout: 5_000 });
    await expect(page.getByTestId("questions-in-memory")).toHaveText("1");
  });

  test("keeps what was typed and shows the API's message next to the field", async ({ page, guard }) => {
    guard.allow(/\/ui\/shows\/[^/]+\/(rank|config)$/);
    const show = unique("e2e-valid");
    await signIn(page, DEV_KEY);
    await page.goto(`/ui/shows/${show}`);
    const long = `Why ${"very ".repeat(220)}long?`;
    await page.getByLabel("Candidates, one per line").fill(`Short one?\n${long}`);
    await page.getByRole("button", { name: "Rank", exact: true }).click();
    await expect(page.locator("#candidates-error")).toContainText("Line 2");
    await expect(page.getByLabel("Candidates, one per line")).toHaveValue(`Short one?\n${long}`);

    await page.getByLabel("Penalise from (similarity)").fill("0.9");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "penaltySimilarityThreshold" })).toBeVisible();
    await expect(page.getByLabel("Penalise from (similarity)")).toHaveValue("0.9");
    await page.getByLabel("Questions kept in memory").fill("5000");
    await page.getByLabel("Penalise from (similarity)").fill("0.7");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect(page.locator("#cfg-maxCacheSize-error")).toBeVisible();
    await expect(page.getByLabel("Questions kept in memory")).toHaveValue("5000");
    await screenshots(page, "console-validation");
  });

  test("pauses and resumes the memory, and refreshes a topic", async ({ page }) => {
    const show = unique("e2e-pause");
    await apiCall(page.request, "POST", `/v1/shows/${show}/questions`, {
      questions: [
        { text: "Is consciousness binary?", topics: ["consciousness"] },
        { text: "Will robots pay taxes?", topics: ["economy"] },
      ],
    });
    await signIn(page, DEV_KEY);
    await page.goto(`/ui/shows/${show}`);
    await page.getByRole("button", { name: "Pause memory" }).click();
    await expect(page.getByTestId("memory-state")).toHaveText("Paused");
    await page.getByRole("button", { name: "Resume memory" }).click();
    await expect(page.getByTestId("memory-state")).toHaveText("Active");
    await page.getByLabel("Refresh topic").fill("consciousness");
    await page.getByRole("button", { name: "Refresh topic" }).click();
    await expect(page.getByRole("status")).toContainText("1 question about “consciousness” taken out of memory");
    await expect(page.getByTestId("questions-in-memory")).toHaveText("1");
  });

  test("refuses a form post without its CSRF token", async ({ page, guard }) => {
    guard.allow(/\/questions$/);
    const show = unique("e2e-csrf");
    await signIn(page, DEV_KEY);
    const response = await page.request.post(`/ui/shows/${show}/questions`, { form: { text: "Forged?" } });
    expect(response.status()).toBe(403);
    await page.goto(`/ui/shows/${show}`);
    await expect(page.getByText("No questions yet in this period.")).toBeVisible();
  });
});
