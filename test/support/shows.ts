import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import type { Clock } from "../../src/clock";
import { createApp } from "../../src/http/app";
import { createServices, type Services } from "../../src/services";
import type { ShowMemory } from "../../workers/show-memory";

/**
 * The real app with an injected clock (the show routes pass services.clock.now() to the Durable
 * Object), counting the route's calls to the embedder. `override` may replace ports (faults).
 */
export function showClient(key: string, clock: Clock, override: (s: Services) => Services = (s) => s) {
  let embedCalls = 0;
  const app = createApp({
    services: (e) => {
      const real = override(createServices(e, clock));
      const embedder = real.embedder;
      return {
        ...real,
        embedder: {
          ...embedder,
          canEmbed: (t: string) => embedder.canEmbed(t),
          embed: (texts: readonly string[]) => {
            embedCalls++;
            return embedder.embed(texts);
          },
        },
      };
    },
  });
  async function send(method: string, path: string, body?: unknown) {
    const ctx = createExecutionContext();
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await app.fetch(
      new Request(`https://recall.test${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, any> };
  }
  return {
    post: (path: string, body: unknown) => send("POST", path, body),
    put: (path: string, body: unknown) => send("PUT", path, body),
    get: (path: string) => send("GET", path),
    embedCalls: () => embedCalls,
  };
}

/** How many questions a show's object stores (active or forgotten), read from its SQLite storage. */
export function storedQuestionCount(stub: DurableObjectStub<ShowMemory>): Promise<number> {
  return runInDurableObject(stub, (_o: ShowMemory, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM show_questions").one().n);
}

/** The object's in-memory window, oldest first: its store is private, reached inside the object only. */
export function windowIdsOf(stub: DurableObjectStub<ShowMemory>): Promise<string[]> {
  return runInDurableObject(stub, (o: ShowMemory) => o["store"].windowIds());
}
