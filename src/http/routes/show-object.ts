/**
 * What every /v1/shows/:showId route shares: the show id rule, the show's Durable Object (its name
 * includes the tenant, so no tenant can reach another's show), the D1 listing row, the one batch
 * embedding call per request, and the domain results turned into the API's errors.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { Embedder } from "../../platform/ports/embedder";
import { EmbeddingError } from "../../platform/ports/embedder";
import { errorFields } from "../../platform/observe/log";
import { recordShow } from "../../features/shows/archive";
import type { EmbeddedText, ShowResult, ShowSummary } from "../../features/shows/types";
import type { AppEnv } from "../context";
import { AppError } from "../errors";

export const showIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1–64 characters of A–Z, a–z, 0–9, _ or -");
export const showParam = z.object({ showId: showIdSchema });

/** Scores and similarities leave the API with 4 decimals. */
export const round = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);

/** One embedding call for every distinct text the model can embed; the others get null (lexical comparison). */
export async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<EmbeddedText[]> {
  const distinct = [...new Set(texts.filter((t) => embedder.canEmbed(t)))];
  let vectors: Float32Array[] = [];
  try {
    if (distinct.length > 0) vectors = await embedder.embed(distinct);
  } catch (error) {
    if (error instanceof EmbeddingError) {
      throw new AppError("UNAVAILABLE", "The embedding model is unavailable; nothing was recorded. Retry shortly.");
    }
    throw error;
  }
  const byText = new Map(distinct.map((t, i) => [t, vectors[i]!]));
  return texts.map((t) => ({ text: t, vector: byText.get(t) ?? null }));
}

export function unwrap<T>(result: ShowResult<T>): T {
  if (result.ok) return result.value;
  const { code, message, details } = result.error;
  if (code === "ENDED") throw new AppError("CONFLICT", message);
  if (code === "NOT_FOUND") throw new AppError("NOT_FOUND", message);
  throw new AppError(
    "VALIDATION_FAILED",
    message,
    (details ?? []).map((detail) => ({ path: "(root)", message: detail })),
  );
}

/** The show's Durable Object: its name includes the tenant, so no tenant can reach another's show. */
export function show(c: Context<AppEnv>) {
  const ns = c.env.SHOW_MEMORY;
  return ns.get(ns.idFromName(`${c.get("principal").tenantId}:${showIdOf(c)}`));
}

/** Keeps the D1 listing row current. The object is the record; a failed listing write is logged, not fatal. */
export async function archive(c: Context<AppEnv>, summary: ShowSummary, now: number): Promise<void> {
  try {
    await recordShow(c.get("services").db, c.get("principal").tenantId, showIdOf(c), summary, now);
  } catch (error) {
    c.get("log").error("show_archive_failed", errorFields(error));
  }
}

/** The validated show id (every show route validates the param before its handler runs). */
export function showIdOf(c: Context<AppEnv>): string {
  return showIdSchema.parse(c.req.param("showId"));
}
