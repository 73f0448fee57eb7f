/** The Recall API Worker: HTTP (Hono), cron upkeep, and the tickets queue consumer. */
import { createApp } from "../src/http/app";
import { createServices } from "../src/services";
import { consumeTickets } from "../src/tickets/consume";
import { runCron } from "../src/upkeep/cron";

export { ShowMemory } from "./show-memory";

const app = createApp();

export default {
  fetch: app.fetch,

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(controller.cron, createServices(env)));
  },

  async queue(batch, env) {
    // The TICKETS queue: the ticket-to-FAQ pipeline (src/tickets/consume.ts).
    await consumeTickets(batch, createServices(env));
  },
} satisfies ExportedHandler<Env>;
