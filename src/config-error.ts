/**
 * A binding or var is missing or malformed: the request is answered 503 UNAVAILABLE and logged
 * (src/http/errors.ts). Its own module because both services.ts and the adapters it wires
 * (tickets/secret-box.ts) throw it.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
}
