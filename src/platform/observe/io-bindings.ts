/**
 * The Worker's bindings with every round trip recorded in a trace (src/platform/observe/io-trace.ts): D1
 * (each statement's first/all/run/raw, and a batch as one), KV, Vectorize, Workers AI, the show
 * Durable Object's stubs and the tickets queue. Wrapped once per request at the binding boundary
 * (src/http/io-trace.ts), so every layer above, services and routes alike, is counted unchanged.
 */
import { databaseBinding, databaseNames } from "../db/databases";
import type { IoKind } from "./io-depth";
import { IoTrace } from "./io-trace";

const TRACE = Symbol("io trace");
const RAW = Symbol("untraced env");

interface TracedEnv extends Env {
  [TRACE]: IoTrace;
  [RAW]: Env;
}

const isTraced = (env: Env): env is TracedEnv => TRACE in env;

/** The trace an env records into (null: an env no request traced, as in jobs and some tests). */
export function traceOf(env: Env): IoTrace | null {
  return isTraced(env) ? env[TRACE] : null;
}

/**
 * The env with its bindings recording into `trace`. An env traced already (a request the app
 * makes to itself in-process) is unwrapped first: `trace` is then the caller's trace's child, and
 * each call is recorded once in both.
 */
export function tracedEnv(env: Env, trace: IoTrace): Env {
  const raw = isTraced(env) ? env[RAW] : env;
  const traced: Env = { ...raw };
  // A binding an environment lacks (AI and Vectorize locally, anything a test leaves out) stays absent.
  const wrap = <K extends keyof Env>(name: K, wrapper: (binding: NonNullable<Env[K]>) => Env[K]) => {
    const binding = raw[name];
    if (binding) traced[name] = wrapper(binding);
  };
  for (const name of databaseNames(raw))
    (traced as unknown as Record<string, D1Database>)[name] = tracedD1(databaseBinding(raw, name)!, trace);
  wrap("CACHE", (kv) => tracedMethods(kv, trace, "kv", ["get", "getWithMetadata", "put", "delete", "list"]));
  wrap("TICKETS", (queue) => tracedMethods(queue, trace, "q", ["send", "sendBatch"]));
  wrap("SHOW_MEMORY", (namespace) => tracedNamespace(namespace, trace));
  wrap("AI", (ai) => tracedMethods(ai, trace, "ai", ["run"]));
  wrap("VECTORIZE", (index) =>
    tracedMethods(index, trace, "vec", ["query", "queryById", "insert", "upsert", "deleteByIds", "getByIds", "describe"]),
  );
  Object.defineProperties(traced, { [TRACE]: { value: trace }, [RAW]: { value: raw } });
  return traced;
}

/**
 * `fetch` for a service reached over HTTP rather than a binding (the local embedder, which stands
 * in for Workers AI), recorded as `kind` in the env's trace; the plain fetch when nothing traces it.
 */
export function tracedFetch(env: Env, kind: IoKind): typeof fetch {
  const trace = traceOf(env);
  if (!trace) return fetch;
  return (input, init) => trace.record(kind, () => fetch(input, init));
}

/** `target` with the named methods recorded as `kind`; everything else as it was (bound to the binding, which native methods need). */
function tracedMethods<T extends object>(target: T, trace: IoTrace, kind: IoKind, methods: readonly string[]): T {
  const counted = new Set(methods);
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== "function") return value;
      if (typeof property === "string" && counted.has(property))
        return (...args: unknown[]) => trace.record(kind, () => Reflect.apply(value, object, args) as unknown);
      return (value as (...a: unknown[]) => unknown).bind(object);
    },
  });
}

/** A Durable Object namespace whose stubs record every call (RPC methods and fetch) as `do`. */
function tracedNamespace<T extends object>(namespace: T, trace: IoTrace): T {
  return new Proxy(namespace, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== "function") return value;
      const method = (value as (...a: unknown[]) => unknown).bind(object);
      if (property === "get" || property === "getByName") return (...args: unknown[]) => tracedStub(method(...args) as object, trace);
      if (property === "jurisdiction") return (...args: unknown[]) => tracedNamespace(method(...args) as object, trace);
      return method;
    },
  });
}

/** Properties of a stub that are data, not calls to the object. */
const STUB_DATA = new Set<PropertyKey>(["id", "name", "then"]);

function tracedStub(stub: object, trace: IoTrace): object {
  return new Proxy(stub, {
    get(object, property) {
      // An RPC stub answers any property name with a callable: read it from the stub itself.
      if (typeof property === "symbol" || STUB_DATA.has(property)) return Reflect.get(object, property);
      // Reflect.apply, not `.apply`: on a stub's method `.apply` would be one more remote method.
      return (...args: unknown[]) =>
        trace.record("do", () => Reflect.apply(Reflect.get(object, property) as (...a: unknown[]) => unknown, object, args) as unknown);
    },
  });
}

/** D1 whose statements record each first/all/run/raw, and each batch once: a batch is one round trip. */
function tracedD1(db: D1Database, trace: IoTrace): D1Database {
  const traced = {
    prepare: (query: string) => new TracedStatement(db.prepare(query), trace, writes(query)),
    batch: <T>(statements: D1PreparedStatement[]) =>
      trace.record("d1", () => db.batch<T>(statements.map(untraced)), batchWrites(statements)),
    exec: (query: string) => trace.record("d1", () => db.exec(query), true),
    dump: () => trace.record("d1", () => db.dump(), false),
  };
  // A session's queries are counted too. Read from the binding when asked for, as the binding
  // itself would answer (src/platform/db/session.ts looks for it; a binding without sessions has none).
  Object.defineProperty(traced, "withSession", {
    enumerable: true,
    get: () =>
      typeof db.withSession === "function"
        ? (constraint?: D1SessionConstraint | D1SessionBookmark) => tracedSession(db.withSession(constraint), trace)
        : undefined,
  });
  return traced as unknown as D1Database;
}

function tracedSession(session: D1DatabaseSession, trace: IoTrace): D1DatabaseSession {
  return {
    prepare: (query) => new TracedStatement(session.prepare(query), trace, writes(query)),
    batch: <T>(statements: D1PreparedStatement[]) =>
      trace.record("d1", () => session.batch<T>(statements.map(untraced)), batchWrites(statements)),
    getBookmark: () => session.getBookmark(),
  };
}

/** Whether a statement may write: only a plain read can be answered by a read replica (the latency model's d1r / d1w). */
const writes = (query: string) => !/^\s*(?:select|pragma|explain)\b/iu.test(query);
/** A batch writes if any of its statements does; a statement not made here counts as a write. */
const batchWrites = (statements: readonly D1PreparedStatement[]) => statements.some((s) => !(s instanceof TracedStatement) || s.write);

/** The platform's batch takes only its own statements. */
const untraced = (statement: D1PreparedStatement) => (statement instanceof TracedStatement ? statement.inner : statement);

class TracedStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly trace: IoTrace,
    readonly write: boolean,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new TracedStatement(this.inner.bind(...values), this.trace, this.write);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return this.trace.record("d1", () => (colName === undefined ? this.inner.first<T>() : this.inner.first<T>(colName)), this.write);
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.trace.record("d1", () => this.inner.run<T>(), this.write);
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.trace.record("d1", () => this.inner.all<T>(), this.write);
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    if (options?.columnNames) return this.trace.record("d1", () => this.inner.raw<T>({ columnNames: true }), this.write);
    return this.trace.record("d1", () => this.inner.raw<T>(), this.write);
  }
}
