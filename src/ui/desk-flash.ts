/**
 * The review desk's answer to a form that worked: a redirect (reload and back never post again)
 * carrying a notice of what was done, shown once by the next page (flash.ts). The client script's
 * background posts get their 204 and no notice: they say it themselves.
 */
import { done, isFragment, type UiContext } from "./context";
import { setFlash } from "./flash";
import { shortened } from "./layout";

export function doneWith(c: UiContext, to: string, text: string) {
  if (!isFragment(c)) setFlash(c, { kind: "ok", text });
  return done(c, to);
}

/** A text quoted in a notice, cut to stay readable (the page shows the whole text). */
export const quoted = (text: string, max = 90) => `“${shortened(text, max)}”`;
