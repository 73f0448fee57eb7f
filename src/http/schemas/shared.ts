import { z } from "zod";

/** A scope names whose memories these are ("user:42", "team/support"): printable, no control characters. */
export const scopeSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}\p{Cs}]+$/u, "must not contain control characters")
  // Documented as the input may be: trimmed first, so surrounding white space is fine.
  .meta({ pattern: "^\\s*[^\\p{Cc}\\p{Cs}]+\\s*$" });

/** Resource ids are prefixed random tokens; anything else cannot exist, so it is a 404-worthy miss, not a 400. */
export const idParam = z.object({ id: z.string().min(1).max(100) });
