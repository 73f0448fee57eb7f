/** Building blocks of the response schemas (what the API answers; the request schemas live with the routes). */
import { z } from "zod";

export const obj = z.strictObject;
/** An ISO 8601 UTC time as Date.toISOString() writes it. */
export const isoTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .meta({ format: "date-time" });
/** Calibrated similarity (0..1): null when no vector was compared. */
export const similarity = z.number().min(0).max(1).nullable();
/** The model's own cosine (−1..1): null when no vector was compared. */
export const rawCosine = z.number().min(-1).max(1).nullable();
/** Importance, confidence, novelty: 0..1. */
export const unit = z.number().min(0).max(1);
export const nullableString = z.string().nullable();
export const tags = z.array(z.string());
