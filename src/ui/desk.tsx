/** The FAQ review desk (seed 002): staging queue, FAQ list and pages, pipeline statistics. */
import type { Hono } from "hono";
import type { UiEnv } from "./context";
import { faqRoutes } from "./desk-faqs";
import { stagingRoutes } from "./desk-staging";

export function deskRoutes(ui: Hono<UiEnv>) {
  stagingRoutes(ui);
  faqRoutes(ui);
}
