import { Hono } from "hono";
import type { AppEnv } from "../context";

/** GET /healthz: public; names the active adapters, never a secret. */
export const health = new Hono<AppEnv>().get("/healthz", (c) => {
  const { embedder, vectors, judge } = c.get("services");
  return c.json({
    status: "ok",
    service: "recall",
    adapters: {
      embedder: {
        kind: embedder.kind,
        model: embedder.model,
        dimensions: embedder.dimensions,
        languages: embedder.languages,
      },
      vectorIndex: { kind: vectors.kind },
      judge: { kind: judge },
    },
  });
});
