/** A small app around the middleware under test: a request id and logger as the real app sets them, errors in its envelope. */
import { Hono, type Handler, type MiddlewareHandler } from "hono";
import type { Principal } from "../../src/features/auth/keys";
import type { AppEnv } from "../../src/http/context";
import { handleError } from "../../src/http/errors";
import { rootLogger } from "../../src/platform/observe/log";

/** The request's logger: another object than any the services bring, so a test can tell which one a middleware kept. */
export const requestLog = rootLogger.with({ requestId: "req-test" });

export const passed: Handler<AppEnv> = (c) => c.json({ passed: true });

export function appAround(middleware: MiddlewareHandler<AppEnv>[], route: Handler<AppEnv> = passed) {
  return new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set("requestId", "req-test");
      c.set("log", requestLog);
      await next();
    })
    .use(...middleware)
    .all("*", route)
    .onError(handleError);
}

/** Stands in for authenticate: the request's principal, as a valid key of that tenant and role would give it. */
export const signedInAs =
  (tenantId: string, role: Principal["role"]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set("principal", { tenantId, role, keyId: "key-test", database: "DB", writesFrozen: false });
    await next();
  };

/** A body sent in chunks with no declared length, as a client streaming its upload does. */
export function streamOf(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
      controller.close();
    },
  });
}

/** Bytes that are not UTF-8: "café" with a Latin-1 é. */
export const LATIN1 = new Uint8Array([0x22, 0x63, 0x61, 0x66, 0xe9, 0x22]);
