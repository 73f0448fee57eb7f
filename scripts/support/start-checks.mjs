// What `npm start` (scripts/start.mjs) decides about its own failures, apart so test/node/start.test.ts
// can check it without starting the stack.
import { createServer } from "node:net";

/** True when something already listens on host:port (we cannot bind it), e.g. another `npm start`. */
export function portInUse(port, host = "127.0.0.1") {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) => (error.code === "EADDRINUSE" ? resolve(true) : reject(error)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** The one line `npm start` ends with when its port is taken. */
export function portInUseLine(port) {
  return `recall: port ${port} is in use — set PORT=<another port> or stop the other process`;
}

/**
 * The exit code of `npm start` once a process it runs (wrangler dev) ended without being asked
 * to: that process's own code when it failed, else 1. Never 0: the service was meant to keep
 * running, and a script that waits on `npm start` must see that it did not.
 */
export function failureExitCode(code) {
  return Number.isInteger(code) && code !== 0 ? code : 1;
}
