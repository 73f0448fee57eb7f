/**
 * Counts the request's round trips (src/platform/observe/io-trace.ts): its bindings are swapped for traced
 * ones before the services are built from them, and once the answer is built its counts and
 * sequential depth go out as `Server-Timing: io;desc="d1=2 kv=1 vec=0 ai=0 do=0 q=0 seq=2"` and
 * into the access line (`io`). Mounted inside the access log, before withServices.
 */
import type { MiddlewareHandler } from "hono";
import { tracedEnv, traceOf } from "../platform/observe/io-bindings";
import { ioCallsServerTiming, ioServerTiming } from "../platform/observe/io-depth";
import { IoTrace } from "../platform/observe/io-trace";
import type { AppEnv } from "./context";

/** A request that sends `x-recall-io: calls` also gets each call's step and ticks (`iocalls`, for the latency bench). */
export const IO_CALLS_HEADER = "x-recall-io";

export const ioTrace: MiddlewareHandler<AppEnv> = async (c, next) => {
  // An in-process call to the app's own routes (dispatch) gets the caller's traced env: its trace
  // is the caller's child, so the hook's, MCP's and the screens' requests count their inner calls.
  const trace = new IoTrace(traceOf(c.env));
  c.env = tracedEnv(c.env, trace);
  await next();
  const io = trace.summary();
  c.set("io", io);
  c.header("server-timing", ioServerTiming(io), { append: true });
  if (c.req.header(IO_CALLS_HEADER) === "calls") c.header("server-timing", ioCallsServerTiming(trace.calls), { append: true });
};
