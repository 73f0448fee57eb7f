/**
 * A notice that survives the redirect after a form post ("3 questions about … taken out of
 * memory"): the post sets it in a short-lived cookie, the next page shows it once and clears it.
 * So every action can answer with a redirect (reload and back never post again) and still say
 * what it did. The text is rendered by hono/jsx (escaped); a forged cookie can only show text.
 */
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { UiContext } from "./context";
import { isLocalHost } from "./session";

export interface Flash {
  kind: "ok" | "error";
  text: string;
  /** Shown above the ranked cards (a card's own action, whose redirect lands there) instead of the page's top. */
  atResults?: boolean;
}

const FLASH_COOKIE = "recall_flash";
/** Long enough for the redirect, short enough that a lost one does not show up much later. */
const FLASH_SECONDS = 60;
/** Characters kept: the cookie (base64url of UTF-8) stays well under a browser's 4 KB per cookie. */
const MAX_TEXT = 600;

const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
const fromBase64Url = (text: string) =>
  new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
    Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (ch) => ch.charCodeAt(0)),
  );

function options(c: UiContext) {
  return { path: "/ui", httpOnly: true, sameSite: "Strict" as const, secure: !isLocalHost(new URL(c.req.url).hostname) };
}

export function setFlash(c: UiContext, flash: Flash): void {
  const json = JSON.stringify({ kind: flash.kind, text: flash.text.slice(0, MAX_TEXT), atResults: flash.atResults === true });
  setCookie(c, FLASH_COOKIE, toBase64Url(json), { ...options(c), maxAge: FLASH_SECONDS });
}

/** The pending notice, if any; it is cleared, so a reload does not show it again. */
export function takeFlash(c: UiContext): Flash | undefined {
  const raw = getCookie(c, FLASH_COOKIE);
  if (raw === undefined) return undefined;
  deleteCookie(c, FLASH_COOKIE, options(c));
  try {
    const value = JSON.parse(fromBase64Url(raw)) as Partial<Flash>;
    if ((value.kind === "ok" || value.kind === "error") && typeof value.text === "string") {
      return { kind: value.kind, text: value.text.slice(0, MAX_TEXT), atResults: value.atResults === true };
    }
  } catch {
    // a damaged cookie shows nothing
  }
  return undefined;
}
