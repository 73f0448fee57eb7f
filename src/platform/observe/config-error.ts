/**
 * A binding or var is missing or malformed: the request is answered 503 UNAVAILABLE and logged
 * (src/http/errors.ts). Its own module because both services.ts and the adapters it wires
 * (tickets/secret-box.ts) throw it.
 */
import type { SafeMessage } from "./log";

export class ConfigError extends Error implements SafeMessage {
  override name = "ConfigError";
  /** Names the var or binding to fix, never data: logged as is (src/platform/observe/log.ts). */
  readonly safeMessage = true;
}
