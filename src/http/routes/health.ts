import { Hono } from "hono";
import { calibrationStatus } from "../../calibration/registry";
import type { AppEnv } from "../context";
import { adminDocs } from "../docs/admin";

/** GET /healthz: public; names the active adapters, never a secret. */
export const health = new Hono<AppEnv>().get("/healthz", adminDocs.health, (c) => {
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
        // Which similarity the thresholds compare: calibrated (with the table's method) or raw cosine.
        calibration: calibrationStatus(embedder.model, embedder.calibration),
      },
      vectorIndex: { kind: vectors.kind },
      judge: { kind: judge.kind },
    },
  });
});
