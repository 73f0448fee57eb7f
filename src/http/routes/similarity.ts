import { Hono } from "hono";
import { z } from "zod";
import { calibrate } from "../../core/calibration/calibration";
import { decidePair } from "../../core/scale/pair";
import { EmbeddingError } from "../../platform/ports/embedder";
import { cosine } from "../../core/ranking/cosine";
import { normalizeText } from "../../core/text/normalize";
import type { AppEnv } from "../context";
import { similarityDocs } from "../docs/similarity";
import { readsOnly } from "../route-facts";
import { validate, visibleText } from "../validation";

/** Longest text explained: a question, not a document. */
export const MAX_EXPLAIN_CHARS = 2_000;

const text = visibleText(MAX_EXPLAIN_CHARS);
export const explainSchema = z.strictObject({ a: text, b: text });

/**
 * POST /v1/similarity/explain: the same-question decision every feature takes (dedupe, "asked
 * before", the show's block, the ticket pipeline), for any two texts, with its evidence. When the
 * embedder is down or cannot embed a text, it decides by shared words and says `degraded`.
 */
export const similarity = new Hono<AppEnv>().post(
  "/explain",
  similarityDocs.explain,
  readsOnly,
  validate("json", explainSchema),
  async (c) => {
    const { embedder } = c.get("services");
    const body = c.req.valid("json");
    const a = normalizeText(body.a, MAX_EXPLAIN_CHARS).text;
    const b = normalizeText(body.b, MAX_EXPLAIN_CHARS).text;
    const degraded: "embeddings"[] = [];
    let rawCosine: number | null = null;
    if (embedder.canEmbed(a) && embedder.canEmbed(b)) {
      try {
        const [va, vb] = await embedder.embed([a, b]);
        rawCosine = cosine(va!, vb!);
      } catch (error) {
        if (!(error instanceof EmbeddingError)) throw error;
        degraded.push("embeddings");
      }
    }
    const decision = decidePair(a, b, rawCosine, embedder.scale);
    return c.json({
      similarity: rawCosine === null ? null : round(calibrate(rawCosine, embedder.scale.calibration)),
      rawCosine: rawCosine === null ? null : round(rawCosine),
      model: embedder.model,
      decision: decision.relation,
      confidence: decision.confidence,
      reason: decision.reason,
      evidence: { ...decision.evidence, score: round(decision.evidence.score), sharedWords: round(decision.evidence.sharedWords) },
      degraded,
    });
  },
);

const round = (x: number) => Math.round(x * 1e4) / 1e4;
