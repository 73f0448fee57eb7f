/** zod validation with the shared hook: a failure is a 400 VALIDATION_FAILED listing the bad fields. */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError } from "./errors";

export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const details = result.error.issues.map((issue) => ({
        path: issue.path.map(String).join(".") || "(root)",
        message: issue.message,
      }));
      throw new AppError("VALIDATION_FAILED", `Invalid ${target}: ${details.map((d) => d.path).join(", ")}`, details);
    }
  });
}
