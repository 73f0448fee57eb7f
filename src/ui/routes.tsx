/**
 * /ui: the screens, served by the same Worker. Sign-in turns a pasted API key into a sealed
 * session cookie; every other page needs that session; every POST needs the session's CSRF token
 * and a same-origin Origin. Pages get data only through the /v1 API (in-process, as the user).
 */
import { signInRefusedFor } from "../http/rate-limit";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { principalForKey } from "../http/middleware/authenticate";
import { errorFields } from "../platform/observe/log";
import { assets } from "./assets";
import type { Dispatch } from "../http/dispatch";
import { ApiUnauthorized } from "./api";
import { formField, isFragment, screen, type UiContext, type UiEnv, UiFailure, viewerOf } from "./context";
import { consoleRoutes } from "./console";
import { deskRoutes } from "./desk";
import { Field, Layout, Notice, type Viewer } from "./layout";
import {
  endSession,
  isEnded,
  isLocalHost,
  newSession,
  openSession,
  sameToken,
  sealSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  SessionSecretMissing,
  type Session,
} from "./session";

/** No inline script or style anywhere; every asset from this Worker; no framing; forms post only here. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const MAX_FORM_BYTES = 256 * 1024;
/** The cookie's session when it is valid and was not signed out. */
async function currentSession(c: UiContext): Promise<Session | null> {
  const session = await openSession(getCookie(c, SESSION_COOKIE), c.env.UI_SESSION_SECRET, c.get("services").clock.now());
  return session && !(await isEnded(c.get("services").cache, session)) ? session : null;
}

function cookieOptions(c: UiContext) {
  return { path: "/ui", httpOnly: true, sameSite: "Strict" as const, secure: !isLocalHost(new URL(c.req.url).hostname) };
}

const SignIn = ({ error }: { error?: string }) => (
  <Layout title="Sign in">
    <div class="card signin">
      <h1>Sign in to Recall</h1>
      <p class="muted">Paste an API key. It is kept only in an encrypted, HttpOnly session cookie for 8 hours.</p>
      <form method="post" action="/ui/login">
        <Field
          id="api-key"
          name="key"
          type="password"
          label="API key"
          error={error}
          attrs={{ autocomplete: "off", required: true, spellcheck: "false" }}
        />
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
    </div>
  </Layout>
);

function ErrorPage({ status, message, viewer }: { status: number; message: string; viewer?: Viewer | undefined }) {
  return (
    <Layout title={`Error ${status}`} viewer={viewer}>
      <h1>{status === 403 ? "Not allowed" : status === 404 ? "Not found" : "Something went wrong"}</h1>
      <Notice kind="error">{message}</Notice>
      <p>
        <a href="/ui">Back to the start</a>
      </p>
    </Layout>
  );
}

/** 429: this key's requests per minute are used up; nothing is wrong, the page works again after the wait. */
function RateLimitedPage({ wait, viewer }: { wait: number; viewer?: Viewer | undefined }) {
  return (
    <Layout title="Too many requests" viewer={viewer}>
      <h1>Too many requests</h1>
      <Notice kind="error">
        This API key made more requests in the last minute than its limit allows. Wait {wait} second{wait === 1 ? "" : "s"} and try again:
        go back, or reload the page.
      </Notice>
      <p>
        <a href="/ui">Back to the start</a>
      </p>
    </Layout>
  );
}

export function createUi(dispatch: Dispatch) {
  const ui = new Hono<UiEnv>();

  ui.use(async (c, next) => {
    c.set("dispatch", dispatch);
    await next();
    c.header("content-security-policy", CONTENT_SECURITY_POLICY);
    c.header("x-content-type-options", "nosniff");
    c.header("referrer-policy", "same-origin");
    c.header("x-frame-options", "DENY");
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  });

  ui.get("/assets/:name", screen, (c) => {
    const asset = assets.get(c.req.path);
    if (!asset) return c.text("Not found", 404);
    return c.body(asset.body, 200, { "content-type": asset.type, "cache-control": "public, max-age=31536000, immutable" });
  });

  // Every POST: same origin (browsers send Origin on POST), a bounded body.
  ui.use(async (c, next) => {
    if (c.req.method !== "POST") return next();
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== new URL(c.req.url).origin) return c.text("Cross-origin form posts are refused", 403);
    return bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (cx) => cx.text("The form is too large", 413) })(c, next);
  });

  ui.get("/", screen, async (c) => {
    if (await currentSession(c)) return c.redirect("/ui/shows", 303);
    return c.html(<SignIn />);
  });

  ui.post("/login", screen, async (c) => {
    const { clock } = c.get("services");
    const key = (await formField(c, "key")).trim();
    if (key === "") return c.html(<SignIn error="Paste an API key" />, 400);
    const wait = await signInRefusedFor(c.env, c.req.header("cf-connecting-ip"), Date.now());
    if (wait !== null)
      return c.html(<SignIn error={`Too many sign-in attempts from this address: try again in ${wait} s`} />, 429, {
        "retry-after": String(wait),
      });
    const principal = key.length <= 256 && !/\s/.test(key) ? await principalForKey(c.get("services"), c.env, key) : null;
    if (!principal) return c.html(<SignIn error="This API key is not valid (unknown or revoked)" />, 401);
    const sealed = await sealSession(newSession(key, clock.now()), c.env.UI_SESSION_SECRET);
    setCookie(c, SESSION_COOKIE, sealed, { ...cookieOptions(c), maxAge: SESSION_TTL_MS / 1000 });
    return c.redirect("/ui/shows", 303);
  });

  ui.post("/logout", screen, async (c) => {
    const session = await currentSession(c);
    // Only the session's own form may end it (CSRF), but a stale or forged post still loses the cookie.
    if (session && sameToken(await formField(c, "_csrf"), session.csrf))
      await endSession(c.get("services").cache, session, c.get("services").clock.now());
    deleteCookie(c, SESSION_COOKIE, cookieOptions(c));
    return c.redirect("/ui", 303);
  });

  // Everything below needs a session, and a POST needs its CSRF token.
  ui.use(async (c, next) => {
    const services = c.get("services");
    const session = await currentSession(c);
    const principal = session ? await principalForKey(services, c.env, session.key) : null;
    if (!session || !principal) {
      if (getCookie(c, SESSION_COOKIE) !== undefined) deleteCookie(c, SESSION_COOKIE, cookieOptions(c));
      return isFragment(c) || c.req.method !== "GET" ? c.text("Sign in again", 401) : c.redirect("/ui", 303);
    }
    c.set("session", session);
    c.set("principal", principal);
    if (c.req.method === "POST" && !sameToken(await formField(c, "_csrf"), session.csrf)) {
      return c.text("The form's CSRF token is missing or wrong; reload the page and try again", 403);
    }
    await next();
  });

  consoleRoutes(ui);
  deskRoutes(ui);

  ui.all("*", (c) => c.html(<ErrorPage status={404} message={`No page at ${c.req.path}`} viewer={viewerOf(c)} />, 404));

  ui.onError((error, c) => {
    if (error instanceof ApiUnauthorized) {
      deleteCookie(c, SESSION_COOKIE, cookieOptions(c));
      return isFragment(c) ? c.text("Sign in again", 401) : c.redirect("/ui", 303);
    }
    const viewer = c.get("session") && c.get("principal") ? viewerOf(c) : undefined;
    if (error instanceof SessionSecretMissing) return c.html(<ErrorPage status={503} message={error.message} />, 503);
    if (error instanceof UiFailure && error.status === 429) {
      // The API's limit per key: say how long to wait, in words and as Retry-After (a fragment poll backs off by it too).
      const wait = error.retryAfterSeconds ?? 60;
      c.header("retry-after", String(wait));
      return isFragment(c) ? c.text(error.message, 429) : c.html(<RateLimitedPage wait={wait} viewer={viewer} />, 429);
    }
    if (error instanceof UiFailure) {
      const status = error.status === 404 || error.status === 403 || error.status === 409 ? error.status : 502;
      return isFragment(c)
        ? c.text(error.message, status)
        : c.html(<ErrorPage status={status} message={error.message} viewer={viewer} />, status);
    }
    c.get("log").error("ui_error", errorFields(error, { stack: true }));
    const message = `The page could not be built (request ${c.get("requestId")}).`;
    return isFragment(c) ? c.text(message, 500) : c.html(<ErrorPage status={500} message={message} viewer={viewer} />, 500);
  });

  return ui;
}
