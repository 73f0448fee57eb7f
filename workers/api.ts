/** The Recall API Worker: HTTP (Hono), cron upkeep, and the tickets queue consumer. */
import { createApp } from "../src/app/app";
import { envInSession } from "../src/platform/db/session";
import { databaseNames } from "../src/platform/db/databases";
import { createServices } from "../src/app/services";
import { consumeTickets } from "../src/features/tickets/consume";
import { runCron } from "../src/app/cron";

export { ShowMemory } from "./show-memory";

const app = createApp();

export default {
  fetch: app.fetch,

  // Jobs read, decide and write: their D1 session starts on the primary (src/platform/db/session.ts).
  async scheduled(controller, env, ctx) {
    const services = createServices(envInSession(env, "first-primary"));
    ctx.waitUntil(runCron(controller.cron, services, databaseNames(env)).finally(() => services.faqPostgres?.release()));
  },

  async queue(batch, env) {
    // The TICKETS queue: the ticket-to-FAQ pipeline (src/features/tickets/consume.ts). A Postgres pool it
    // opened (FAQ_STORE=postgres) ends with the batch: its WebSockets cannot outlive the invocation.
    const services = createServices(envInSession(env, "first-primary"));
    try {
      await consumeTickets(batch, services);
    } finally {
      await services.faqPostgres?.release();
    }
  },
} satisfies ExportedHandler<Env>;
