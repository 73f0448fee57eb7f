/**
 * The /v1 API: a route for the method and path (404/405) → JSON body rules → auth → the tenant's
 * database → rate limit per key → the tenant's scale → the routes. Built here, below the screens, so its type is what the
 * screens' typed client (src/ui/api.ts) checks their calls against; src/app/app.ts mounts it at /v1.
 */
import { Hono } from "hono";
import type { AppEnv } from "./context";
import { authenticate } from "./middleware/authenticate";
import { jsonBodies } from "./middleware/json-bodies";
import { tenantDatabase } from "./middleware/tenant-database";
import { tenantScale } from "./middleware/tenant-scale";
import { timed } from "./middleware/timed";
import { limitPerApiKey } from "./rate-limit";
import { type AppRouter, knownRoutesOnly } from "./routing";
import { admin } from "./routes/admin";
import { calibration } from "./routes/calibration";
import { cards } from "./routes/cards";
import { context } from "./routes/context";
import { faqs } from "./routes/faqs";
import { helpdeskConnections } from "./routes/helpdesk-connections";
import { memories } from "./routes/memories";
import { pipeline } from "./routes/pipeline";
import { placement } from "./routes/placement";
import { query } from "./routes/query";
import { questions } from "./routes/questions";
import { sessions } from "./routes/sessions";
import { shows } from "./routes/shows";
import { similarity } from "./routes/similarity";
import { staging } from "./routes/staging";
import { tickets } from "./routes/tickets";
import { webhookSecrets } from "./routes/webhook-secrets";

/** `appRouter` is the whole app, read per request because it is built after this group (src/http/routing.ts). */
export function createApi(appRouter: AppRouter) {
  // A method or path no route takes is answered 404/405 before any body is read or key checked.
  return new Hono<AppEnv>()
    .use(timed("knownRoute", knownRoutesOnly(appRouter)))
    .use(timed("jsonBody", jsonBodies()))
    .use(timed("auth", authenticate()))
    .use(timed("tenantDatabase", tenantDatabase))
    .use(timed("rateLimit", limitPerApiKey()))
    .use(timed("tenantScale", tenantScale))
    .route("/memories", memories)
    .route("/shows", shows)
    .route("/cards", cards)
    .route("/query", query)
    .route("/questions", questions)
    .route("/similarity", similarity)
    .route("/context", context)
    .route("/sessions", sessions)
    .route("/faqs", faqs)
    .route("/tickets", tickets)
    .route("/staging", staging)
    .route("/pipeline", pipeline)
    .route("/admin/webhook-secrets", webhookSecrets)
    .route("/admin/helpdesk-connections", helpdeskConnections)
    .route("/admin/calibration", calibration)
    .route("/admin", placement)
    .route("/admin", admin);
}

/** The /v1 routes' types, relative to /v1. */
export type Api = ReturnType<typeof createApi>;
