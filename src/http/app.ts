/**
 * The Hono app: headers → request id → access log → I/O trace → services → (webhooks: rate
 * limits; v1: a route for the method and path (404/405) → JSON body rules → auth → rate limit per
 * key) → routes, one error envelope for everything. `createApp` takes the services factory so
 * tests can put a failing adapter behind a port; production uses createServices.
 */
import { Hono } from "hono";
import { systemClock } from "../clock";
import type { Defer } from "../embeddings/cached";
import { rootLogger } from "../log";
import { createServices, type Services } from "../services";
import type { AppEnv } from "./context";
import type { Dispatch } from "./dispatch";
import { accessLog } from "./access-log";
import { d1Sessions } from "./bookmark";
import { ioTrace } from "./io-trace";
import { handleError } from "./errors";
import { authenticate, decodablePath, jsonBodies, tenantScale, withServices } from "./middleware";
import { limitPerApiKey, limitWebhooks } from "./rate-limit";
import { noStoreNoSniff, requestIds } from "./request-id";
import { allowedMethods, type AppRouter, knownRoutesOnly, noRoute } from "./routing";
import { admin } from "./routes/admin";
import { calibration } from "./routes/calibration";
import { cards } from "./routes/cards";
import { context } from "./routes/context";
import { faqs } from "./routes/faqs";
import { health } from "./routes/health";
import { home } from "./routes/home";
import { hooks } from "./routes/hooks";
import { mcp } from "./routes/mcp";
import { memories } from "./routes/memories";
import { pipeline } from "./routes/pipeline";
import { shows } from "./routes/shows";
import { query } from "./routes/query";
import { questions } from "./routes/questions";
import { similarity } from "./routes/similarity";
import { reference } from "./routes/reference";
import { sessions } from "./routes/sessions";
import { staging } from "./routes/staging";
import { tickets } from "./routes/tickets";
import { helpdeskConnections } from "./routes/helpdesk-connections";
import { helpdeskWebhooks } from "./routes/helpdesk-webhooks";
import { webhookSecrets } from "./routes/webhook-secrets";
import { webhooks } from "./routes/webhooks";
import { createUi } from "../ui/routes";

const PAGE_METHODS = new Set(["GET", "HEAD", "POST"]);
const notAPageMethod = (method: string) => !PAGE_METHODS.has(method);

export interface AppOptions {
  /** `defer` runs work after the response (the request's waitUntil). */
  services?: (env: Env, defer: Defer) => Services;
}

export function createApp({ services = (env, defer) => createServices(env, systemClock, rootLogger, defer) }: AppOptions = {}) {
  // The whole app's routes, for 404/405 (routing.ts); bound late like dispatch below.
  const appRouter: AppRouter = () => app;
  // A method or path no route takes is answered 404/405 before any body is read or key checked.
  const v1 = new Hono<AppEnv>()
    .use(knownRoutesOnly(appRouter))
    .use(jsonBodies())
    .use(authenticate())
    .use(limitPerApiKey())
    .use(tenantScale)
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
    .route("/admin", admin);

  // The hook, MCP and screen adapters call the app's own routes; bound late because they are part of it.
  const dispatch: Dispatch = (request, env, executionCtx) => app.fetch(request, env, executionCtx);
  const app = new Hono<AppEnv>()
    .use(noStoreNoSniff)
    .use(requestIds)
    .use(accessLog())
    .use(ioTrace)
    .use(decodablePath)
    // Before the services: they are built on the request's D1 session (read replicas, x-recall-bookmark).
    .use(d1Sessions)
    .use(withServices(services))
    .route("/", health)
    .route("/", home)
    // Signed by HMAC, not a Bearer key, and reads its raw body: mounted before the v1 group.
    .use("/v1/webhooks/*", limitWebhooks())
    .route("/v1/webhooks", webhooks)
    .route("/v1/webhooks/tickets", helpdeskWebhooks)
    // Answer 200 `{}` on any failure, auth included (Claude Code ignores non-2xx): before the v1 group.
    .route("/v1/hooks", hooks(dispatch))
    .route("/mcp", mcp(dispatch))
    .route("/v1", v1)
    // The screens call the API above in-process, as the signed-in user (src/ui/). Pages are GET and
    // forms POST, answered by the screens (HTML); any other method is answered as everywhere else.
    .use("/ui/*", knownRoutesOnly(appRouter, notAPageMethod))
    .route("/ui", createUi(dispatch));
  // The reference routes describe the app they are mounted on (itself included).
  return app
    .route("/", reference(app))
    .notFound((c) => noRoute(c, allowedMethods(app, c.req.path)))
    .onError(handleError);
}
