/**
 * The Hono app: headers → request id → access log → I/O trace → services → (webhooks: rate
 * limits; v1: a route for the method and path (404/405) → JSON body rules → auth → rate limit per
 * key) → routes, one error envelope for everything. `createApp` takes the services factory so
 * tests can put a failing adapter behind a port; production uses createServices.
 */
import { Hono } from "hono";
import { systemClock } from "../core/base/clock";
import type { Defer } from "../platform/ports/services";
import { rootLogger } from "../platform/observe/log";
import { createServices } from "./services";
import { type Services } from "../platform/ports/services";
import type { AppEnv } from "../http/context";
import type { Dispatch } from "../http/dispatch";
import { accessLog } from "../http/access-log";
import { d1Sessions } from "../http/bookmark";
import { ioTrace } from "../http/io-trace";
import { handleError } from "../http/errors";
import { createApi } from "../http/api";
import { decodablePath } from "../http/middleware/decodable-path";
import { timed } from "../http/middleware/timed";
import { withServices } from "../http/middleware/with-services";
import { limitWebhooks } from "../http/rate-limit";
import { noStoreNoSniff, requestIds } from "../http/request-id";
import { allowedMethods, type AppRouter, knownRoutesOnly, noRoute } from "../http/routing";
import { health } from "../http/routes/health";
import { home } from "../ui/home";
import { hooks } from "../http/routes/hooks";
import { mcp } from "../http/mcp/route";
import { reference } from "../http/routes/reference";
import { helpdeskWebhooks } from "../http/routes/helpdesk-webhooks";
import { webhooks } from "../http/routes/webhooks";
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

  // The hook, MCP and screen adapters call the app's own routes; bound late because they are part of it.
  const dispatch: Dispatch = (request, env, executionCtx) => app.fetch(request, env, executionCtx);
  const app = new Hono<AppEnv>()
    .use(timed("headers", noStoreNoSniff))
    .use(timed("requestId", requestIds))
    .use(timed("accessLog", accessLog()))
    .use(timed("ioTrace", ioTrace))
    .use(timed("decodablePath", decodablePath))
    // Before the services: they are built on the request's D1 session (read replicas, x-recall-bookmark).
    .use(timed("d1Session", d1Sessions))
    .use(timed("services", withServices(services)))
    .route("/", health)
    .route("/", home)
    // Signed by HMAC, not a Bearer key, and reads its raw body: mounted before the v1 group.
    .use("/v1/webhooks/*", limitWebhooks())
    .route("/v1/webhooks", webhooks)
    .route("/v1/webhooks/tickets", helpdeskWebhooks)
    // Answer 200 `{}` on any failure, auth included (Claude Code ignores non-2xx): before the v1 group.
    .route("/v1/hooks", hooks(dispatch))
    .route("/mcp", mcp(dispatch))
    .route("/v1", createApi(appRouter))
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
