import { z } from "zod";

/** A scope names whose memories these are ("user:42", "team/support"): printable, no control characters. */
export const scopeSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}\p{Cs}]+$/u, "must not contain control characters");

/** Resource ids are prefixed random tokens; anything else cannot exist, so it is a 404-worthy miss, not a 400. */
export const idParam = z.object({ id: z.string().min(1).max(100) });
