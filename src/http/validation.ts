/**
 * Request validation that also documents the request: hono-openapi's validator (Standard Schema,
 * so zod 4 schemas as they are) puts the schema into the OpenAPI document as the operation's
 * parameters or body. A failure is a 400 VALIDATION_FAILED listing the bad fields.
 */
import type { MiddlewareHandler, ValidationTargets } from "hono";
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
  const validating = validator(target, schema, (result) => {
    if (!result.success) {
      const details = issueDetails(result.error);
      throw new AppError("VALIDATION_FAILED", `Invalid ${target}: ${details.map((d) => d.path).join(", ")}`, details);
    }
  });
  if (target !== "json") return validating;
  // Hono's validator reports unparsable JSON as a bare HTTPException(400); parsing first (Hono keeps
  // the parsed body for the validator) makes it a typed INVALID_JSON, not a message to match.
  const parsingFirst: MiddlewareHandler = async (c, next) => {
    if (JSON_MEDIA_TYPE.test(c.req.header("content-type")?.split(";")[0]?.trim() ?? "")) {
      try {
        await c.req.json();
      } catch {
        throw new AppError("INVALID_JSON", "Malformed JSON in request body");
      }
    }
    return validating(c, next);
  };
  // Keeps what hono-openapi attached (the schema it documents) and the typed input Hono infers.
  return Object.assign(parsingFirst, validating) as typeof validating;
}

/** The media types Hono's JSON validator parses. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
