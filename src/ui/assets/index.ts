/** /ui's static assets: bundled into the Worker, served under content-hashed names (cached for a year). */
import { CLIENT_JS } from "./client";
import { CONSOLE_CSS } from "./console-styles";
import { DESK_CSS } from "./desk-styles";
import { REVIEW_KEYS_JS } from "./review-keys";
import { STYLES_CSS } from "./styles";

/** FNV-1a, enough to make a new file name when the content changes. */
function contentHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

export interface Asset {
  path: string;
  type: string;
  body: string;
}

/** One stylesheet: the shared rules, then the review desk's (desk-styles.ts) and the producer console's (console-styles.ts). */
const CSS = STYLES_CSS + DESK_CSS + CONSOLE_CSS;
export const stylesheet: Asset = {
  path: `/ui/assets/app-${contentHash(CSS)}.css`,
  type: "text/css; charset=utf-8",
  body: CSS,
};
export const script: Asset = {
  path: `/ui/assets/app-${contentHash(CLIENT_JS)}.js`,
  type: "text/javascript; charset=utf-8",
  body: CLIENT_JS,
};

/** The staging review page's keyboard shortcuts, loaded by that page only. */
export const reviewScript: Asset = {
  path: `/ui/assets/review-${contentHash(REVIEW_KEYS_JS)}.js`,
  type: "text/javascript; charset=utf-8",
  body: REVIEW_KEYS_JS,
};

export const assets = new Map([stylesheet, script, reviewScript].map((a) => [a.path, a]));
