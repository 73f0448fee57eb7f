import { Hono } from "hono";
import { scaleInForce } from "../../features/calibration/in-force";
import { scaleStatus } from "../../core/scale/scale";
import { isSkipped } from "../../platform/deadlines/breaker";
import { embedderBreakerKey, KV_BREAKER_KEY, vectorizeBreakerKey } from "../../platform/ports/services";
import { DEPLOYMENT } from "../../features/calibration/tables-store";
import type { AppEnv } from "../context";
import { adminDocs } from "../docs/admin";

/** GET /healthz: public; names the active adapters and which outside part is being skipped after a missed deadline, never a secret. */
export const health = new Hono<AppEnv>().get("/healthz", adminDocs.health, async (c) => {
  const { embedder, vectors, judge, home, clock, log } = c.get("services");
  // No tenant here: the deployment's scale (its own fit, else the shipped table, else raw).
  const scale = await scaleInForce(home, DEPLOYMENT, embedder.model, clock.now(), log);
  const state = (breakerKey: string) => (isSkipped(breakerKey) ? ("skipped" as const) : ("ok" as const));
  const states = {
    embedder: state(embedderBreakerKey(c.env)),
    vectorIndex: state(vectorizeBreakerKey(embedder.model)),
    judge: state(judge.kind),
    cache: state(KV_BREAKER_KEY),
  };
  return c.json({
    status: Object.values(states).includes("skipped") ? "degraded" : "ok",
    service: "recall",
    adapters: {
      embedder: {
        kind: embedder.kind,
        model: embedder.model,
        dimensions: embedder.dimensions,
        languages: embedder.languages,
        state: states.embedder,
        // Which similarity the thresholds compare, and where its table comes from (docs/guides/calibration.md).
        calibration: scaleStatus(scale),
      },
      // VECTOR_INDEX=auto: the rule it routes collections by (a collection's own size needs a tenant; /healthz has none).
      vectorIndex: { kind: vectors.kind, state: states.vectorIndex, ...(vectors.routing ? { routing: vectors.routing } : {}) },
      judge: { kind: judge.kind, state: states.judge },
      cache: { state: states.cache },
    },
  });
});
