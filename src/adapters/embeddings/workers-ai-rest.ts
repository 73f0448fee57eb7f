/**
 * Workers AI over its REST API, for Node scripts on a laptop (`npm run calibrate -- --model @cf/…`):
 * a Worker reaches the models through the AI binding, a laptop only with an account id and an API
 * token. This is an AiRunner like the binding, so `workersAiEmbedder(workersAiRest(…), model, dims)`
 * (workers-ai.ts) batches, reads and checks the vectors exactly as in production.
 *
 * The documented shape (https://developers.cloudflare.com/workers-ai/get-started/rest-api/, the
 * "Execute AI model" endpoint https://developers.cloudflare.com/api/resources/ai/methods/run/):
 *   POST https://api.cloudflare.com/client/v4/accounts/{account_id}/ai/run/{model}
 *   Authorization: Bearer {API_TOKEN}, body: the model's input, here { "text": [...] }
 *   → { "result": <what env.AI.run returns>, "success": true, "errors": [], "messages": [] }
 * For the BGE models `result` is { shape: [n, d], data: number[][] } (bge-m3's output schema,
 * https://developers.cloudflare.com/workers-ai/models/bge-m3/). A failure is `success: false` with
 * `errors: [{ code, message }]`, usually with a 4xx/5xx status (codes:
 * https://developers.cloudflare.com/workers-ai/workers-ai-errors/).
 */
import { EmbeddingError } from "../../platform/ports/embedder";
import type { AiRunner } from "./workers-ai";

export const CLOUDFLARE_API_BASE = "https://api.cloudflare.com/client/v4";

export interface WorkersAiRestOptions {
  accountId: string;
  apiToken: string;
  fetcher?: typeof fetch;
  /** The API root; another one only for tests or a proxy. */
  baseUrl?: string;
}

/** Cloudflare's v4 API envelope around every answer. */
interface Envelope {
  result?: unknown;
  success?: boolean;
  errors?: { code?: number; message?: string }[];
}

export function workersAiRest({ accountId, apiToken, fetcher = fetch, baseUrl = CLOUDFLARE_API_BASE }: WorkersAiRestOptions): AiRunner {
  const root = `${baseUrl.replace(/\/+$/, "")}/accounts/${encodeURIComponent(accountId)}/ai/run/`;
  return {
    async run(model, inputs) {
      // The model id goes into the path as is (`@cf/baai/bge-m3`, slashes included), as documented.
      const url = root + encodeURI(model);
      let response: Response;
      try {
        response = await fetcher(url, {
          method: "POST",
          headers: { Authorization: `Bearer ${apiToken}`, "content-type": "application/json" },
          body: JSON.stringify({ text: inputs.text }),
        });
      } catch (cause) {
        throw new EmbeddingError(`Workers AI REST API unreachable for ${model}`, { cause });
      }
      const text = await response.text();
      let body: Envelope | null = null;
      try {
        body = JSON.parse(text) as Envelope;
      } catch {
        // A proxy's HTML error page, an empty body: reported by status below.
      }
      if (!response.ok || body?.success !== true) {
        // Status and Cloudflare's own error messages, so "401: Authentication error" reads as what
        // it is. The token is never part of it (and is scrubbed, should an error ever echo it).
        const reasons = (body?.errors ?? []).map((e) => (e.code === undefined ? `${e.message}` : `${e.message} (code ${e.code})`));
        const why = reasons.length ? reasons.join("; ") : body ? "success: false" : `not JSON (${response.statusText || "no reason"})`;
        throw new EmbeddingError(scrub(`Workers AI REST ${model} answered ${response.status}: ${why}`, apiToken));
      }
      return body.result;
    },
  };
}

function scrub(message: string, secret: string): string {
  return secret ? message.split(secret).join("[token]") : message;
}
