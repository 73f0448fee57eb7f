/**
 * What every /ui handler gets: the session (the user's API key, sealed in the cookie), the
 * principal it resolves to, and `dispatch`, the app's own fetch, through which the screens call
 * the API in-process as that user (src/ui/api.ts).
 */
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import type { Dispatch } from "../http/dispatch";
import { notInApiDocument } from "../http/openapi/describe";
import type { Session } from "./session";

export interface UiEnv {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { session: Session; dispatch: Dispatch };
}

export type UiContext = Context<UiEnv>;

export class UiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A 429's Retry-After (seconds), passed on to the browser. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Marks a /ui route: an HTML screen (or its asset) for people, not part of the JSON API and its document. */
export const screen = notInApiDocument("An HTML screen of the Recall UI (forms, redirects, a session cookie), not part of the JSON API.");

export const isFragment = (c: UiContext) => c.req.header("x-recall-fragment") === "1";

export function viewerOf(c: UiContext): { role: "client" | "admin"; csrf: string } {
  return { role: c.get("principal").role, csrf: c.get("session").csrf };
}

/** After a form post: back to the page (plain form) or 204 (the client script's background post). */
export function done(c: UiContext, to: string) {
  return isFragment(c) ? c.body(null, 204) : c.redirect(to, 303);
}

/** One form field as a string ("" when absent or a file). */
export async function formField(c: UiContext, name: string): Promise<string> {
  const value = (await c.req.parseBody())[name];
  return typeof value === "string" ? value : "";
}
