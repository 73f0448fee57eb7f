/**
 * The one logger: every line is one JSON object on the console (Workers Logs indexes JSON lines),
 *   { time, level, event, ...bound fields (requestId, tenant, job …), ...the event's fields }
 * A logger is made per request (src/http/access-log.ts), per background job (cron, queue batch)
 * and per Durable Object, with the fields that identify it bound once; domain code receives one
 * (Services.log) and never imports Hono. Fields whose name says they hold a secret, a key or a body
 * are replaced by "[redacted]", whatever the caller passes (see isSecretField).
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  /** A logger whose lines also carry `fields` (a request's tenant once it is known, a job's name). */
  with(fields: LogFields): Logger;
}

/** Where lines go: the console method of the level, so the platform's own level filter works too. */
export type LogSink = (level: LogLevel, line: string) => void;

const consoleSink: LogSink = (level, line) => {
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
};

/**
 * A field whose name ends in one of these words (camelCase or snake_case: `apiKey`, `webhook_secret`,
 * `rawBody`) never carries its value into a line; `keyId`, `secretId` or `tokens` (a count) do.
 */
const SECRET_WORDS = new Set([
  "secret",
  "secrets",
  "password",
  "token",
  "key",
  "keys",
  "kek",
  "authorization",
  "cookie",
  "cookies",
  "body",
]);

function isSecretField(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_-]+/);
  return SECRET_WORDS.has(words.at(-1) ?? "");
}

export function createLogger(bound: LogFields = {}, sink: LogSink = consoleSink): Logger {
  const write =
    (level: LogLevel) =>
    (event: string, fields: LogFields = {}) => {
      sink(level, JSON.stringify(redact({ time: new Date().toISOString(), level, event, ...bound, ...fields })));
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    with: (fields) => createLogger({ ...bound, ...fields }, sink),
  };
}

/** For code that runs with no request or job around it (module-level warnings). */
export const rootLogger: Logger = createLogger();

/** An error as log fields: its class and message, and the stack only when asked (unexpected errors). */
export function errorFields(error: unknown, { stack = false }: { stack?: boolean } = {}): { error: Record<string, unknown> } {
  if (!(error instanceof Error)) return { error: { message: String(error) } };
  const cause = error.cause instanceof Error ? { cause: { name: error.cause.name, message: error.cause.message } } : {};
  return { error: { name: error.name, message: error.message, ...cause, ...(stack && error.stack ? { stack: error.stack } : {}) } };
}

/** A short, stable code for an error in a job's line: its typed `code` when it has one, else its class. */
export function errorCodeOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") return error.code;
  return error instanceof Error ? error.name : "unknown";
}

function redact(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (isSecretField(name)) out[name] = "[redacted]";
    else if (isPlainObject(field)) out[name] = redact(field);
    else out[name] = field;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
