import { defineConfig } from "@playwright/test";

// The browser suite (`npm run test:browser`): Debian's Chromium drives the real local stack
// (wrangler dev --local + the local embedder), which e2e/support/global-setup.ts starts on its
// own ports with a fresh state folder and stops at the end.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8805);

export default defineConfig({
  testDir: "e2e",
  outputDir: "results/e2e/artifacts",
  globalSetup: "./e2e/support/global-setup.ts",
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${E2E_PORT}`,
    browserName: "chromium",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    trace: "retain-on-failure",
  },
});
