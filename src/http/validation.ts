/**
 * Request validation that also documents the request: hono-openapi's validator (Standard Schema,
 * so zod 4 schemas as they are) puts the schema into the OpenAPI document as the operation's
 * parameters or body. A failure is a 400 VALIDATION_FAILED listing the bad fields.
 */
import type { MiddlewareHandler, ValidationTargets } from "hono";
import { validator } from "hono-openapi";
import { z, type ZodType } from "zod";
import { AppError } from "./errors";

type IssuePath = readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;

export function issueDetails(issues: readonly { message: string; path?: IssuePath }[]): Detail[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".") || "(root)",
    message: issue.message,
  }));
}

export type Detail = { path: string; message: string };

/** What a person calls each part of a request. */
const PART: Record<keyof ValidationTargets, string> = {
  json: "request body",
  form: "form",
  query: "query",
  param: "path",
  header: "headers",
  cookie: "cookies",
};

/**
 * The 400 VALIDATION_FAILED for `details`, its message saying what is wrong in words
 * ("Invalid request body: tags.0: Too big: expected string to have <=64 characters"), the first
 * three in full; `details` lists them all.
 */
export function validationFailed(details: readonly Detail[], part = PART.json): AppError {
  const shown = details.slice(0, 3).map((d) => (d.path === "(root)" ? d.message : `${d.path}: ${d.message}`));
  const more = details.length > 3 ? ` (and ${details.length - 3} more)` : "";
  return new AppError("VALIDATION_FAILED", `Invalid ${part}: ${shown.join("; ")}${more}`, [...details]);
}

export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  const validating = validator(target, schema, (result) => {
    if (!result.success) throw validationFailed(issueDetails(result.error), PART[target]);
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

/** With the u flag a well-formed pair is one astral code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Where a parsed JSON value holds an unpaired UTF-16 surrogate, in a string or a key, as a
 * validation detail; null when it holds none. `"\ud800"` is valid JSON syntax but no text: D1 and
 * every UTF-8 encoder store it as U+FFFD, so the API would keep other text than it was sent. This
 * is the one test of text validity for every stored string: request bodies (jsonBodies, which the
 * MCP and hook adapters' calls go through too), signed webhooks and the lines of the FAQ import.
 */
export function unpairedSurrogate(value: unknown): Detail | null {
  const at = (path: readonly string[], what: string) => ({
    path: path.join(".") || "(root)",
    message: `${what} an unpaired UTF-16 surrogate (an escape \\ud800–\\udfff without its pair), which is not text`,
  });
  // Depth-first with a stack of its own: a body nested deeper than the call stack is no crash.
  const stack: [unknown, readonly string[]][] = [[value, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === "string") {
      if (LONE_SURROGATE.test(node)) return at(path, "holds");
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], [...path, String(i)]]);
    } else if (node !== null && typeof node === "object") {
      const entries = Object.entries(node);
      if (entries.some(([key]) => LONE_SURROGATE.test(key))) return at(path, "has a key holding");
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], [...path, entries[i]![0]]]);
    }
  }
  return null;
}

/** A 400 VALIDATION_FAILED naming where a parsed body holds an unpaired surrogate, if it does. */
export function requireText(body: unknown): void {
  const problem = unpairedSurrogate(body);
  if (problem) throw validationFailed([problem]);
}

/** The media types Hono's JSON validator parses. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Text a person wrote: trimmed, 1..max characters, and at least one letter, digit, mark or symbol.
 * A text of nothing but control characters ("\u0000") or spaces is refused with a 400, not stored.
 */
export const visibleText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => /[\p{L}\p{N}\p{M}\p{S}\p{P}]/u.test(text), "must contain visible text, not only control characters or spaces");
