import { apiCall, DEV_KEY, expect, screenshots, signIn, test } from "./support/fixtures";

test.describe("sign-in", () => {
  test("signs in with the key, keeps it out of the page, and signs out", async ({ page, context }) => {
    await page.goto("/ui");
    await expect(page.getByRole("heading", { name: "Sign in to Recall" })).toBeVisible();
    await screenshots(page, "sign-in");
    await signIn(page, DEV_KEY);
    const cookie = (await context.cookies()).find((c) => c.name === "recall_ui");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Strict");
    expect(cookie?.value).not.toContain(DEV_KEY);
    expect(await page.content()).not.toContain(DEV_KEY);
    expect(page.url()).not.toContain(DEV_KEY);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { name: "Sign in to Recall" })).toBeVisible();
    expect((await context.cookies()).find((c) => c.name === "recall_ui")).toBeUndefined();
    // A copy of the signed-out cookie opens nothing either.
    await context.addCookies([cookie!]);
    await page.goto("/ui/shows");
    await expect(page.getByRole("heading", { name: "Sign in to Recall" })).toBeVisible();
  });

  test("works from the keyboard: sign in, open a show, rank, mark used", async ({ page }) => {
    await page.goto("/ui");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("API key")).toBeFocused();
    await page.keyboard.type(DEV_KEY);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Producer console", exact: true })).toBeVisible();
    await page.getByLabel("Show id").focus();
    await page.keyboard.type(`kbd-${Date.now().toString(36)}`);
    await page.keyboard.press("Enter");
    await page.getByLabel("Question 1", { exact: true }).focus();
    await page.keyboard.type("What would you ask a lighthouse keeper?");
    await page.keyboard.press("Tab"); // its model
    await expect(page.getByLabel("Model of question 1", { exact: true })).toBeFocused();
    await page.keyboard.press("Tab"); // its confidence
    await page.keyboard.press("Enter"); // submits the form (Rank), as Enter in any field does
    const pick = page.getByTestId("pick").first();
    await pick.getByRole("button", { name: "Mark used" }).focus();
    await page.keyboard.press("Enter");
    await expect(pick.getByRole("button", { name: "✓ Marked used" })).toBeVisible();
  });

  test("shows the error next to the field for a wrong key", async ({ page, guard }) => {
    guard.allow(/\/ui\/login$/);
    await page.goto("/ui");
    await page.getByLabel("API key").fill("rk_this_is_not_a_key");
    await page.getByRole("button", { name: "Sign in" }).click();
    const field = page.getByLabel("API key");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#api-key-error")).toHaveText(/not valid/);
    expect(await page.content()).not.toContain("rk_this_is_not_a_key");
    await screenshots(page, "sign-in-wrong-key");
  });

  test("a client key sees the staging queue but no admin actions, and cannot post one", async ({ page, guard }) => {
    const created = await apiCall(page.request, "POST", "/v1/admin/keys", { role: "client", name: "e2e client" });
    expect(created.status).toBe(201);
    await signIn(page, created.json.key);
    await expect(page.getByText("Client key")).toBeVisible();
    await page.getByRole("link", { name: "Staging queue" }).click();
    await expect(page.getByRole("heading", { name: "Staging queue" })).toBeVisible();
    await expect(page.getByRole("button", { name: /approve/i })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /reject/i })).toHaveCount(0);
    // Posting the admin form directly (with a valid CSRF token) is refused by the API's own rule.
    guard.allow(/\/ui\/staging\/.+\/approve$/);
    const csrf = await page.locator("input[name=_csrf]").first().inputValue();
    const response = await page.request.post("/ui/staging/stg_anything/approve", { form: { _csrf: csrf } });
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain("admin");
  });
});
