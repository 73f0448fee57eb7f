/** The Recall API Worker: HTTP (Hono), cron upkeep, and the tickets queue consumer. */
import { createApp } from "../src/http/app";
import { createServices } from "../src/services";
import { runCron } from "../src/upkeep/cron";

export { ShowMemory } from "./show-memory";

const app = createApp();

export default {
  fetch: app.fetch,

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(controller.cron, createServices(env)));
  },

  async queue(batch) {
    // The ticket pipeline consumes this queue once it exists; until then nothing is dropped:
    // messages are retried and end in the dead-letter queue.
    for (const message of batch.messages) message.retry();
    console.warn(JSON.stringify({ event: "queue_unhandled", queue: batch.queue, count: batch.messages.length }));
  },
} satisfies ExportedHandler<Env>;
