import { runInDurableObject } from "cloudflare:test";
import type { Clock } from "../../src/core/base/clock";
import type { Services } from "../../src/platform/ports/services";
import { clientWith } from "./app";
import type { ShowMemory } from "../../workers/show-memory";

/**
 * The typed client over the real app with an injected clock (the show routes pass
 * services.clock.now() to the Durable Object), counting the route's calls to the embedder.
 * `override` may replace ports (faults). `show(id)` names the show routes of one show.
 */
export function showClient(key: string, clock: Clock, override: (s: Services) => Services = (s) => s) {
  let embedCalls = 0;
  const api = clientWith((services) => {
    const real = override({ ...services, clock });
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
  }, key);
  type Routes = (typeof api)["v1"]["shows"][":showId"];
  function show(showId: string) {
    const routes = api.v1.shows[":showId"];
    const param = { showId };
    return {
      rank: (json: Parameters<Routes["rank"]["$post"]>[0]["json"]) => routes.rank.$post({ param, json }),
      check: (json: Parameters<Routes["check"]["$post"]>[0]["json"]) => routes.check.$post({ param, json }),
      addQuestions: (json: Parameters<Routes["questions"]["$post"]>[0]["json"]) => routes.questions.$post({ param, json }),
      used: (id: string) => routes.questions[":id"].used.$post({ param: { showId, id } }),
      refresh: (json: Parameters<Routes["refresh"]["$post"]>[0]["json"]) => routes.refresh.$post({ param, json }),
      history: (minutes: number) => routes.history.$get({ param, query: { minutes: String(minutes) } }),
      status: () => routes.status.$get({ param }),
      config: (json: Parameters<Routes["config"]["$put"]>[0]["json"]) => routes.config.$put({ param, json }),
      end: () => routes.end.$post({ param }),
      rankings: (limit?: number) => routes.rankings.$get({ param, query: limit === undefined ? {} : { limit: String(limit) } }),
      ranking: (rankingId: string) => routes.rankings[":rankingId"].$get({ param: { showId, rankingId } }),
      override: (json: Parameters<Routes["overrides"]["$post"]>[0]["json"]) => routes.overrides.$post({ param, json }),
    };
  }
  return { api, show, embedCalls: () => embedCalls };
}

/** How many questions a show's object stores (active or forgotten), read from its SQLite storage. */
export function storedQuestionCount(stub: DurableObjectStub<ShowMemory>): Promise<number> {
  return runInDurableObject(
    stub,
    (_o: ShowMemory, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM show_questions").one().n,
  );
}

/** The object's in-memory window, oldest first: its store is private, reached inside the object only. */
export function windowIdsOf(stub: DurableObjectStub<ShowMemory>): Promise<string[]> {
  return runInDurableObject(stub, (o: ShowMemory) => o["store"].windowIds());
}
