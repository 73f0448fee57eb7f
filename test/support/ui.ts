/** The /ui screens as a browser uses them, through SELF: a session cookie, pages, and form posts with the page's CSRF token. */
import { SELF } from "cloudflare:test";

export const UI_BASE = "https://recall.test";

/** Signs in with the key; returns the session cookie ("recall_ui=…"). */
export async function uiSession(key: string): Promise<string> {
  const response = await SELF.fetch(`${UI_BASE}/ui/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: UI_BASE },
    body: new URLSearchParams({ key }),
    redirect: "manual",
  });
  return (response.headers.get("set-cookie") ?? "").split(";")[0]!;
}

/** A browser's cookie jar of one session: the session cookie and whatever pages set (the flash notice). */
export class UiBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(session: string) {
    this.remember(session);
  }

  private remember(cookie: string): void {
    const [pair] = cookie.split(";");
    const at = pair!.indexOf("=");
    const name = pair!.slice(0, at).trim();
    const value = pair!.slice(at + 1);
    // Expired or emptied (deleteCookie): the browser drops it.
    if (value === "" || /max-age=0/i.test(cookie) || /expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  private get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private keep(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) this.remember(cookie);
  }

  async get(path: string): Promise<{ status: number; html: string; headers: Headers }> {
    const response = await SELF.fetch(`${UI_BASE}${path}`, { headers: { cookie: this.header }, redirect: "manual" });
    this.keep(response);
    return { status: response.status, html: await response.text(), headers: response.headers };
  }

  /** Posts a form with the CSRF token of `page`'s HTML; returns the answer (a redirect is not followed). */
  async post(path: string, fields: Record<string, string>, page: string) {
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const response = await SELF.fetch(`${UI_BASE}${path}`, {
      method: "POST",
      headers: { cookie: this.header, "content-type": "application/x-www-form-urlencoded", origin: UI_BASE },
      body: new URLSearchParams({ _csrf: csrf, ...fields }),
      redirect: "manual",
    });
    this.keep(response);
    return { status: response.status, location: response.headers.get("location"), html: await response.text() };
  }
}

export async function uiBrowser(key: string): Promise<UiBrowser> {
  return new UiBrowser(await uiSession(key));
}
