/** /ui's static assets: bundled into the Worker, served under content-hashed names (cached for a year). */
import { CLIENT_JS } from "./client";
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

export const stylesheet: Asset = {
  path: `/ui/assets/app-${contentHash(STYLES_CSS)}.css`,
  type: "text/css; charset=utf-8",
  body: STYLES_CSS,
};
export const script: Asset = {
  path: `/ui/assets/app-${contentHash(CLIENT_JS)}.js`,
  type: "text/javascript; charset=utf-8",
  body: CLIENT_JS,
};

export const assets = new Map([stylesheet, script].map((a) => [a.path, a]));
