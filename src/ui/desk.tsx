/** The FAQ review desk (seed 002): staging queue and review, FAQ list, usage and pages, pipeline statistics. */
import type { Hono } from "hono";
import type { UiEnv } from "./context";
import { faqRoutes } from "./desk-faqs";
import { pipelineRoutes } from "./desk-pipeline";
import { rollbackRoutes } from "./desk-rollback";
import { stagingRoutes } from "./desk-staging";
import { usageRoutes } from "./desk-usage";

export function deskRoutes(ui: Hono<UiEnv>) {
  stagingRoutes(ui);
  // Before the FAQ pages: /faqs/usage is not an FAQ id.
  usageRoutes(ui);
  faqRoutes(ui);
  rollbackRoutes(ui);
  pipelineRoutes(ui);
}
