/**
 * Schema-driven fuzzing of the API: for every operation of the OpenAPI document, requests that
 * are valid by its schemas and requests that break them, sent through `send` (the local Worker
 * over HTTP, Miniflare's dispatchFetch, or SELF.fetch in a test). Every answer must be no 5xx, a
 * documented status with a body matching its schema, and for an error the envelope with no
 * stack, SQL or file path. fast-check drives it; a failing operation keeps its seed and
 * counterexample path so the run can be replayed.
 */
import fc from "fast-check";
import { signPayload } from "../src/features/tickets/signature";
import { HOSTILE_STRINGS, invalid, valid } from "./arbitraries";
import { IdPool, prefixesFor } from "./ids";
import {
  type Doc,
  type Json,
  jsonBodySchema,
  type Operation,
  operations,
  parameters,
  responseProblems,
  type Schema,
  schemaProblems,
} from "./schema";

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Text, or bytes (a body that is not valid UTF-8). */
  body?: string | Uint8Array;
}
export interface FuzzResponse {
  status: number;
  contentType: string | null;
  text: string;
}
export type Send = (request: FuzzRequest) => Promise<FuzzResponse>;

export interface FuzzContext {
  /** An admin key of the tenant under test (every route accepts it). */
  adminKey: string;
  /** A client key of the same tenant: admin routes answer it 403. */
  clientKey: string;
  /** A webhook secret of the tenant, to sign valid deliveries. */
  webhook: { tenantId: string; secret: string };
}

export interface FuzzOptions {
  /** Requests over all operations (split evenly). */
  requests: number;
  timeLimitMs: number;
  seed: number;
  /** operationIds to fuzz (default: all). */
  only?: string[];
  /** Replays one counterexample (with `seed` and `only`). */
  replayPath?: string;
  onOperation?: (report: OperationReport) => void;
}

export interface Failure {
  operationId: string;
  seed: number;
  counterexamplePath: string | null;
  request: FuzzRequest;
  status: number;
  body: string;
  problems: string[];
}

export interface OperationReport {
  operationId: string;
  method: string;
  path: string;
  requests: number;
  statuses: Record<number, number>;
  failures: Failure[];
}

type Auth = "admin" | "client" | "none" | "garbage";
interface Draft {
  kind: "valid" | "invalid";
  params: Record<string, string>;
  query: Record<string, string>;
  /** JSON to send, raw text (malformed bodies, NDJSON), or raw bytes. */
  body?: { json: Json } | { raw: string } | { bytes: number[] };
  contentType?: string;
  auth: Auth;
  signature?: "good" | "stale" | "garbage" | "other-tenant";
  /** A caller's own X-Request-Id (kept when it is sane, replaced when not). */
  requestId?: string;
}

/** Path ids that are not ids: too long, encoded controls and separators, invalid UTF-8, SQL. Inserted as is (already URL-safe). */
const BAD_IDS = [
  "x".repeat(101),
  "x".repeat(5000),
  "%00",
  "..%2F..%2Fetc",
  "%27%20OR%201%3D1%20--",
  "%F0%9F%92%A9",
  "%E2%80%AE",
  "a%2Fb",
  "%20",
  "%ED%A0%80",
  "%FF",
  "%",
  "%%",
  "null",
  "-1",
  "0",
];
const BAD_QUERY_VALUES = ["abc", "-1", "0", "1e999", "NaN", "1.5", "", "x".repeat(5000), ...HOSTILE_STRINGS.slice(0, 8)];
const BAD_BODIES = [
  "{",
  "[1,",
  '{"a":}',
  "\u0000",
  "null",
  '"text"',
  "[]",
  "42",
  '{"__proto__":{"polluted":true}}',
  '{"a":1,"a":2}',
  "\ufeff{}",
  JSON.stringify({ deep: JSON.parse("[".repeat(500) + "]".repeat(500)) }),
];
const BAD_CONTENT_TYPES = [
  "text/plain",
  "application/xml",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "application/json-patch",
  "",
];
/** Byte sequences that are not UTF-8: a lone continuation byte, an overlong slash, an encoded surrogate, a cut-off sequence. */
const BAD_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]];

/** The draft's JSON with invalid UTF-8 bytes inside its first string (or as a whole string body). */
function withBadBytes(body: Draft["body"], bad: number[]): number[] {
  const text = body && "json" in body ? JSON.stringify(body.json) : body && "raw" in body ? body.raw : '{"text":""}';
  const bytes = [...new TextEncoder().encode(text)];
  const quote = bytes.indexOf(0x22, bytes.indexOf(0x3a)); // the first string value after a key
  return quote > 0 ? [...bytes.slice(0, quote + 1), ...bad, ...bytes.slice(quote + 1)] : [0x22, ...bad, 0x22];
}

/** Show ids the valid requests reuse, so shows have history to compare against. */
const SHOW_IDS = ["fuzz-show-a", "fuzz-show-b"];

const LEAK =
  /\bat [\w$.<>]+ \(|\.[jt]s:\d+|\/src\/|\/work\/|node_modules|file:\/\/|SQLITE|D1_|\bSELECT\b[^"]*\bFROM\b|\bINSERT INTO\b|\bUPDATE \w+ SET\b/;

interface Plan {
  op: Operation;
  method: string;
  path: string;
  pathParams: { name: string; schema?: Schema }[];
  queryParams: { name: string; required: boolean; schema?: Schema }[];
  body?: Schema;
  ndjson?: Schema;
  signed: boolean;
  bearer: boolean;
  /** Documented to answer 200 to anything: an invalid request is not expected to be refused. */
  alwaysOk: boolean;
}

function plan(method: string, path: string, op: Operation): Plan {
  const params = parameters(op);
  return {
    op,
    method,
    path,
    pathParams: params.filter((p) => p.in === "path").map((p) => ({ name: p.name, schema: p.schema })),
    queryParams: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, required: p.required === true, schema: p.schema })),
    body: jsonBodySchema(op),
    ndjson: op.requestBody?.content["application/x-ndjson"]?.schema,
    signed: JSON.stringify(op.security ?? []).includes("webhookSignature"),
    bearer: op.security === undefined,
    alwaysOk: op["x-recall-always-200"] === true,
  };
}

const asText = (value: Json) => (typeof value === "string" ? value : JSON.stringify(value));

function validDraft(p: Plan): fc.Arbitrary<Draft> {
  const params = fc.record(
    Object.fromEntries(
      p.pathParams.map(({ name, schema }) => [
        name,
        name === "showId"
          ? fc.oneof({ arbitrary: fc.constantFrom(...SHOW_IDS), weight: 4 }, { arbitrary: valid(schema).map(asText), weight: 1 })
          : fc.oneof({ arbitrary: fc.nat().map((n) => `@pool:${n}`), weight: 4 }, { arbitrary: valid(schema).map(asText), weight: 1 }),
      ]),
    ),
  );
  const query = fc.record(Object.fromEntries(p.queryParams.map(({ name, schema }) => [name, valid(schema).map(asText)])), {
    requiredKeys: p.queryParams.filter((q) => q.required).map((q) => q.name),
  });
  const body: fc.Arbitrary<Draft["body"]> = p.ndjson
    ? fc.array(valid(p.ndjson), { minLength: 1, maxLength: 3 }).map((lines) => ({ raw: lines.map((l) => JSON.stringify(l)).join("\n") }))
    : p.body
      ? valid(p.body).map((json) => ({ json }))
      : fc.constant(undefined);
  return fc.record({ params, query, body }).map(({ params, query, body }) => ({
    kind: "valid",
    params: params as Record<string, string>,
    query: query as Record<string, string>,
    ...(body ? { body } : {}),
    ...(p.ndjson ? { contentType: "application/x-ndjson" } : {}),
    auth: "admin",
    ...(p.signed ? { signature: "good" as const } : {}),
  }));
}

function invalidDraft(p: Plan): fc.Arbitrary<Draft> {
  const base = validDraft(p);
  const ways: fc.WeightedArbitrary<Draft>[] = [];
  if (["post", "put", "patch"].includes(p.method)) {
    ways.push(
      { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom(...BAD_BODIES)).map(([d, raw]) => ({ ...d, body: { raw } })) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(base, fc.constantFrom(...BAD_CONTENT_TYPES))
          .map(([d, contentType]) => ({ ...d, body: d.body ?? { json: {} }, contentType })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(base, fc.constantFrom(...BAD_UTF8)).map(([d, bad]) => ({ ...d, body: { bytes: withBadBytes(d.body, bad) } })),
      },
    );
  }
  if (p.body) {
    const schema = p.body;
    ways.push({
      weight: 6,
      arbitrary: base.chain((d) =>
        invalid(schema, d.body && "json" in d.body ? d.body.json : {}).map((json) => ({ ...d, body: { json } })),
      ),
    });
  }
  if (p.ndjson) {
    const schema = p.ndjson;
    ways.push({
      weight: 4,
      arbitrary: fc
        .tuple(
          base,
          valid(schema).chain((line) => invalid(schema, line)),
          fc.constantFrom("", "not json\n", "\n\n"),
        )
        .map(([d, broken, extra]) => ({
          ...d,
          body: { raw: `${d.body && "raw" in d.body ? d.body.raw : ""}\n${JSON.stringify(broken)}\n${extra}` },
        })),
    });
  }
  if (p.pathParams.length > 0) {
    const names = p.pathParams.map((x) => x.name);
    ways.push({
      weight: 3,
      arbitrary: fc
        .tuple(base, fc.constantFrom(...names), fc.constantFrom(...BAD_IDS))
        .map(([d, name, bad]) => ({ ...d, params: { ...d.params, [name]: `@raw:${bad}` } })),
    });
  }
  if (p.queryParams.length > 0) {
    const names = p.queryParams.map((x) => x.name);
    ways.push({
      weight: 3,
      arbitrary: fc
        .tuple(base, fc.constantFrom(...names), fc.constantFrom(...BAD_QUERY_VALUES))
        .map(([d, name, bad]) => ({ ...d, query: { ...d.query, [name]: bad } })),
    });
  }
  ways.push({ weight: 1, arbitrary: base.map((d) => ({ ...d, query: { ...d.query, unexpected_param: "1" } })) });
  ways.push({
    weight: 1,
    arbitrary: fc
      .tuple(base, fc.constantFrom(...HOSTILE_STRINGS.filter((h) => /^[\x20-\x7e]*$/.test(h)), "x".repeat(500), "a\u00e9"))
      .map(([d, requestId]) => ({ ...d, requestId })),
  });
  if (p.bearer)
    ways.push({
      weight: 1,
      arbitrary: fc.tuple(base, fc.constantFrom<Auth>("none", "garbage", "client")).map(([d, auth]) => ({ ...d, auth })),
    });
  if (p.signed)
    ways.push({
      weight: 3,
      arbitrary: fc
        .tuple(base, fc.constantFrom("stale", "garbage", "other-tenant") as fc.Arbitrary<Draft["signature"]>)
        .map(([d, signature]) => ({ ...d, signature })),
    });
  return fc.oneof(...ways).map((d) => ({ ...d, kind: "invalid" as const }));
}

/** The request a draft describes, with the path parameters as the server will decode them. */
async function toRequest(
  p: Plan,
  d: Draft,
  ctx: FuzzContext,
  pool: IdPool,
): Promise<{ request: FuzzRequest; params: Record<string, string | null> }> {
  let path = p.path;
  const params: Record<string, string | null> = {};
  for (const { name } of p.pathParams) {
    const value = d.params[name] ?? "x";
    const resolved = value.startsWith("@pool:") ? (pool.pick(prefixesFor(p.path, name), Number(value.slice(6))) ?? "missing_id") : value;
    const raw = resolved.startsWith("@raw:") ? resolved.slice(5) : encodeURIComponent(resolved);
    params[name] = decodeOrNull(raw);
    path = path.replace(`{${name}}`, raw);
  }
  const query = new URLSearchParams(d.query).toString();
  const headers: Record<string, string> = {};
  if (p.bearer && d.auth !== "none")
    headers.authorization = `Bearer ${d.auth === "admin" ? ctx.adminKey : d.auth === "client" ? ctx.clientKey : "rk_not_a_key"}`;
  if (d.requestId !== undefined) headers["x-request-id"] = d.requestId;
  const body =
    d.body === undefined
      ? undefined
      : "raw" in d.body
        ? d.body.raw
        : "bytes" in d.body
          ? Uint8Array.from(d.body.bytes)
          : JSON.stringify(d.body.json);
  if (body !== undefined) headers["content-type"] = d.contentType ?? "application/json";
  if (p.signed) {
    const now = Math.floor(Date.now() / 1000);
    const timestamp = String(d.signature === "stale" ? now - 3600 : now);
    headers["x-recall-tenant"] = d.signature === "other-tenant" ? "t_someone_else" : ctx.webhook.tenantId;
    headers["x-recall-timestamp"] = timestamp;
    const signed = body instanceof Uint8Array ? new TextDecoder().decode(body) : (body ?? "");
    headers["x-recall-signature"] = d.signature === "garbage" ? "v1=00" : await signPayload(ctx.webhook.secret, timestamp, signed);
  }
  return {
    request: { method: p.method.toUpperCase(), path: query ? `${path}?${query}` : path, headers, ...(body === undefined ? {} : { body }) },
    params,
  };
}

function decodeOrNull(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** A query or path value as the schema sees it: numbers are numbers (the server coerces them). */
function queryValue(schema: Schema | undefined, value: string): unknown {
  const type = schema?.type;
  if ((type === "integer" || type === "number") && value.trim() !== "") return Number(value);
  return value;
}

/** Why the document says this request must be refused, or null when it may succeed. */
function documentRefuses(p: Plan, d: Draft, request: FuzzRequest, params: Record<string, string | null>): string | null {
  if (p.bearer && (d.auth === "none" || d.auth === "garbage")) return "no valid Bearer key";
  if (p.signed && d.signature !== "good") return `a ${d.signature} signature`;
  for (const { name, schema } of p.pathParams) {
    const value = params[name];
    if (value === null || value === undefined) return `path parameter ${name} is not valid percent-encoding`;
    const typed = queryValue(schema, value);
    if (schema && schemaProblems(schema, typed).length > 0) return `path parameter ${name}: ${schemaProblems(schema, typed).join("; ")}`;
  }
  // The values as sent: URL encoding turns a lone surrogate into U+FFFD, for one.
  const sent = new URLSearchParams(request.path.split("?")[1] ?? "");
  for (const { name, schema } of p.queryParams) {
    const value = sent.get(name) ?? undefined;
    if (value !== undefined && schema && schemaProblems(schema, queryValue(schema, value)).length > 0)
      return `query ${name}: ${schemaProblems(schema, queryValue(schema, value)).join("; ")}`;
  }
  if (!p.body || p.ndjson) return null;
  const type = request.headers["content-type"] ?? "";
  // Zero bytes with no content type is no body, as the Worker reads it (jsonBodies).
  if (request.body === undefined || (type === "" && request.body.length === 0)) return p.op.requestBody?.required ? "no body" : null;
  if (!/^application\/json\s*(;|$)/i.test(type)) return `content type ${type || "(none)"}`;
  let text: string;
  try {
    text =
      typeof request.body === "string" ? request.body : new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(request.body);
  } catch {
    return "the body is not UTF-8";
  }
  let json: unknown;
  try {
    // RFC 8259 lets a parser ignore a byte order mark, and the Worker's does.
    json = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch {
    return "the body is not JSON";
  }
  const problems = schemaProblems(p.body, json);
  return problems.length > 0 ? `the body: ${problems.join("; ")}` : null;
}

/** One JSON document (application/json, problem+json); NDJSON (GET /v1/faqs/export) is lines of them, checked as text. */
function isJsonType(contentType: string | null): boolean {
  return (contentType?.includes("json") ?? false) && !contentType!.includes("ndjson");
}

function check(p: Plan, response: FuzzResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`server error ${response.status}`);
  let body: unknown = null;
  const isJson = isJsonType(response.contentType);
  if (response.text && isJson) {
    try {
      body = JSON.parse(response.text);
    } catch {
      problems.push("the body is not JSON");
    }
  } else body = response.text || null;
  problems.push(...responseProblems(p.op, response.status, response.contentType, body));
  if (response.status >= 400 && LEAK.test(response.text)) problems.push(`the error leaks internals: ${response.text.slice(0, 200)}`);
  return problems;
}

/** Runs the fuzzer; resolves with one report per operation. */
export async function fuzz(doc: Doc, send: Send, ctx: FuzzContext, options: FuzzOptions): Promise<OperationReport[]> {
  const plans = operations(doc)
    .filter(({ op }) => !options.only || options.only.includes(op.operationId))
    .map(({ method, path, op }) => plan(method, path, op));
  const pool = new IdPool([ctx.adminKey, ctx.clientKey]);
  const deadline = Date.now() + options.timeLimitMs;
  const reports: OperationReport[] = [];
  for (const [i, p] of plans.entries()) {
    const report: OperationReport = {
      operationId: p.op.operationId,
      method: p.method.toUpperCase(),
      path: p.path,
      requests: 0,
      statuses: {},
      failures: [],
    };
    const perOperation = Math.ceil((options.requests - reports.reduce((n, r) => n + r.requests, 0)) / (plans.length - i));
    const timeLeft = Math.max(1000, (deadline - Date.now()) / (plans.length - i));
    let last: Failure | null = null;
    const property = fc.asyncProperty(
      fc.oneof({ arbitrary: validDraft(p), weight: 2 }, { arbitrary: invalidDraft(p), weight: 3 }),
      async (draft) => {
        const { request, params } = await toRequest(p, draft, ctx, pool);
        let response: FuzzResponse;
        try {
          response = await send(request);
        } catch (error) {
          // No answer at all (the connection dropped): keep the request, so the failure can be looked at and replayed.
          report.requests++;
          last = {
            operationId: report.operationId,
            seed: options.seed,
            counterexamplePath: null,
            request,
            status: 0,
            body: "",
            problems: [`no answer: ${String(error).slice(0, 300)}`],
          };
          return false;
        }
        report.requests++;
        report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
        const problems = check(p, response);
        // The server and its document must agree: what the document calls invalid is never a success.
        const refusal = response.status < 300 && !p.alwaysOk ? documentRefuses(p, draft, request, params) : null;
        if (refusal) problems.push(`accepted (${response.status}) a request the document calls invalid: ${refusal}`);
        if (response.status < 300 && problems.length === 0 && isJsonType(response.contentType)) pool.collect(JSON.parse(response.text));
        if (problems.length > 0) {
          last = {
            operationId: report.operationId,
            seed: options.seed,
            counterexamplePath: null,
            request,
            status: response.status,
            body: response.text.slice(0, 2000),
            problems,
          };
          return false;
        }
        return true;
      },
    );
    const details = await fc.check(property, {
      seed: options.seed + i,
      numRuns: Math.max(1, perOperation),
      interruptAfterTimeLimit: timeLeft,
      endOnFailure: true,
      ...(options.replayPath ? { path: options.replayPath } : {}),
    });
    if (details.failed) {
      // A property that threw (not a bad answer) is a failure of the fuzzer's own: report it too.
      const failure: Failure = last ?? {
        operationId: report.operationId,
        seed: options.seed + i,
        counterexamplePath: null,
        request: { method: p.method.toUpperCase(), path: p.path, headers: {} },
        status: 0,
        body: "",
        problems: [`the fuzzer failed: ${String(details.errorInstance ?? "unknown error").slice(0, 500)}`],
      };
      report.failures.push({ ...failure, seed: options.seed + i, counterexamplePath: details.counterexamplePath });
    }
    reports.push(report);
    options.onOperation?.(report);
  }
  return reports;
}
