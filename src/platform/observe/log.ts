/**
 * The one logger: every line is one JSON object on the console (Workers Logs indexes JSON lines),
 *   { time, level, event, ...bound fields (requestId, tenant, job …), ...the event's fields }
 * A logger is made per request (src/http/access-log.ts), per background job (cron, queue batch)
 * and per Durable Object, with the fields that identify it bound once; domain code receives one
 * (Services.log) and never imports Hono. Fields whose name says they hold a secret, a key or a body
 * are replaced by "[redacted]", whatever the caller passes (see isSecretField). Errors are logged
 * by class and code, never by message (errorFields).
 */
import { d1ErrorCode } from "../db/errors";

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

/**
 * Set by an error class whose message is fixed text of ours about configuration or availability,
 * never data (ConfigError, StoreUnavailableError): errorFields logs that message.
 */
export interface SafeMessage {
  readonly safeMessage: true;
}

/**
 * An error as log fields, with no customer text and no SQL in them: its class (`name`), a stable
 * `code` (errorCodeOf), the same two for each cause, and, when asked (unexpected errors), `at`: the
 * stack's function names, innermost first. Never the message (unless the class says it is safe):
 * the messages of the errors worth logging are where data travels. Drizzle's carries the query and
 * its parameters (a ticket's question), D1's SQLite's text (an FTS5 syntax error quotes the search
 * terms), a Postgres error the offending value, JSON.parse's the input (issue 34). Function names
 * and no file paths: the names find the failing code in the source; the paths only told the
 * build's layout, and the stack's first line is the message again.
 */
export function errorFields(error: unknown, { stack = false }: { stack?: boolean } = {}): { error: Record<string, unknown> } {
  if (!(error instanceof Error)) return { error: { name: `(thrown ${typeof error})` } };
  const at = stack ? stackFunctions(error) : [];
  return { error: { ...describeError(error, 0), ...(at.length > 0 ? { at } : {}) } };
}

/** How deep errorFields follows `cause`: Drizzle → our storage error → D1's is the deepest chain seen. */
const MAX_CAUSE_DEPTH = 3;

function describeError(error: Error, depth: number): Record<string, unknown> {
  const cause = error.cause instanceof Error && depth < MAX_CAUSE_DEPTH ? { cause: describeError(error.cause, depth + 1) } : {};
  const message = (error as Partial<SafeMessage>).safeMessage === true ? { message: error.message } : {};
  return { name: classOf(error), code: errorCodeOf(error), ...message, ...cause };
}

/** Its `name`, or its class when the name is the plain "Error" a library left (Drizzle's DrizzleQueryError). */
function classOf(error: Error): string {
  const constructorName: unknown = error.constructor?.name;
  return error.name === "Error" && typeof constructorName === "string" && /^\w{1,64}$/.test(constructorName) ? constructorName : error.name;
}

/** The stack's frames cut to their function names ("Object.insertTicket", "storeAndEnqueue"); anonymous frames are left out. */
const FRAME = /^\s+at (?:async )?(?:new )?([\w$.<>]{1,100}) \(/;
const MAX_FRAMES = 12;

function stackFunctions(error: Error): string[] {
  // The stack opens with "Name: message" (the message may span lines): read only what follows it;
  // a stack that opens otherwise is not read at all.
  const head = error.message ? `${error.name}: ${error.message}` : error.name;
  if (!error.stack?.startsWith(head)) return [];
  return error.stack
    .slice(head.length)
    .split("\n")
    .flatMap((line) => FRAME.exec(line)?.[1] ?? [])
    .slice(0, MAX_FRAMES);
}

/** A typed `code` is logged only when it looks like one (an identifier, a SQLSTATE), never free text. */
const CODE = /^[\w.:/-]{1,64}$/;

/**
 * A short, stable code for an error: its typed `code` when it has one (AppError's, a Postgres
 * SQLSTATE, a Node errno name), D1's kind and SQLite code ("D1_ERROR/SQLITE_CONSTRAINT"), else its class.
 */
export function errorCodeOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" && CODE.test(error.code))
    return error.code;
  if (!(error instanceof Error)) return "unknown";
  return d1ErrorCode(error) ?? classOf(error);
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
