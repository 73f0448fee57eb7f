/**
 * Request validation that also documents the request: hono-openapi's validator (Standard Schema,
 * so zod 4 schemas as they are) puts the schema into the OpenAPI document as the operation's
 * parameters or body. A failure is a 400 VALIDATION_FAILED listing the bad fields.
 */
import type { ValidationTargets } from "hono";
import { validator } from "hono-openapi";
import type { ZodType } from "zod";
import { AppError } from "./errors";

type IssuePath = readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;

export function issueDetails(issues: readonly { message: string; path?: IssuePath }[]) {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".") || "(root)",
    message: issue.message,
  }));
}

export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return validator(target, schema, (result) => {
    if (!result.success) {
      const details = issueDetails(result.error);
      throw new AppError("VALIDATION_FAILED", `Invalid ${target}: ${details.map((d) => d.path).join(", ")}`, details);
    }
  });
}
