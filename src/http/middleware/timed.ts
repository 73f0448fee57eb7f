/**
 * Each middleware's own cost, for the benchmarks (npm run bench -- faq-search): with
 * `x-recall-timing: middleware` on the request, every middleware wrapped in `timed` adds its own
 * time — its work before and after the next one, the I/O it waits for included — as a
 * Server-Timing entry `mw.<name>;dur=…`, and the outermost adds the whole chain's as `mw;dur=…`
 * (the access log's `app` leaves out what runs around it, its own log line included). Without the
 * header a wrapper costs one variable read.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";

export const TIMING_HEADER = "x-recall-timing";

export function timed(name: string, middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let times = c.get("middlewareTimes");
    const outermost = times === undefined;
    if (outermost) {
      times = c.req.header(TIMING_HEADER) === "middleware" ? [] : null;
      c.set("middlewareTimes", times);
    }
    if (!times) return middleware(c, next);
    const started = performance.now();
    let inner = 0;
    const result = await middleware(c, async () => {
      const nextStarted = performance.now();
      try {
        await next();
      } finally {
        inner += performance.now() - nextStarted;
      }
    });
    times.push([name, performance.now() - started - inner]);
    if (outermost) {
      const entries = times.map(([n, ms]) => `mw.${n};dur=${ms.toFixed(3)}`);
      c.header("server-timing", [...entries, `mw;dur=${(performance.now() - started).toFixed(3)}`].join(", "), { append: true });
    }
    return result;
  };
}
