import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { recallClient, type RetryOptions } from "../../src/client/client";
import { createApp } from "../../src/app/app";
import { createServices } from "../../src/app/services";
import { type Services } from "../../src/platform/ports/services";

/**
 * The typed client (src/client/client.ts) over the real app with its services changed by `override`;
 * each request waits for the work it left running after the response (hits, indexing). `retry`
 * overrides the client's retries (oneAttempt in test/support/client.ts turns them off).
 */
export function clientWith(override: (real: Services) => Services, key: string, retry?: RetryOptions) {
  const app = createApp({ services: (e) => override(createServices(e)) });
  return recallClient("https://recall.test", {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const ctx = createExecutionContext();
      const response = await app.fetch(new Request(input, init), env, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    },
    headers: { authorization: `Bearer ${key}` },
    ...(retry ? { retry } : {}),
  });
}

/** The embedder is genuinely unreachable: nothing listens on port 9 of this machine. */
export const embedderDown = (real: Services) => createServices({ ...env, EMBEDDER_URL: "http://127.0.0.1:9" }, real.clock);

export const vectorIndexDown = (real: Services): Services => ({
  ...real,
  vectors: {
    ...real.vectors,
    query: async () => {
      throw new Error("index down");
    },
    similarities: async () => {
      throw new Error("index down");
    },
  },
});

/** The real embedder, counting its calls. */
export function countingEmbedder() {
  const calls: string[][] = [];
  const override = (real: Services): Services => ({
    ...real,
    embedder: {
      ...real.embedder,
      canEmbed: (text) => real.embedder.canEmbed(text),
      embed: (texts) => {
        calls.push([...texts]);
        return real.embedder.embed(texts);
      },
    },
  });
  return { calls, override };
}
