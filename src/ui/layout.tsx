/** The page frame and small form pieces shared by every /ui screen. */
import type { Child, FC } from "hono/jsx";
import { script, stylesheet } from "./assets";

export type Section = "shows" | "staging" | "faqs" | "usage" | "pipeline" | "none";

export interface Viewer {
  role: "client" | "admin";
  csrf: string;
}

export const Layout: FC<{ title: string; section?: Section; viewer?: Viewer | undefined; children?: Child }> = ({
  title,
  section = "none",
  viewer,
  children,
}) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · Recall`}</title>
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href={stylesheet.path} />
      <script src={script.path} defer></script>
    </head>
    <body>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/ui">
          Recall
        </a>
        {viewer && (
          <nav aria-label="Screens">
            <a href="/ui/shows" aria-current={section === "shows" ? "page" : undefined}>
              Producer console
            </a>
            <a href="/ui/staging" aria-current={section === "staging" ? "page" : undefined}>
              Staging queue
            </a>
            <a href="/ui/faqs" aria-current={section === "faqs" ? "page" : undefined}>
              FAQs
            </a>
            <a href="/ui/faqs/usage" aria-current={section === "usage" ? "page" : undefined}>
              FAQ usage
            </a>
            <a href="/ui/pipeline" aria-current={section === "pipeline" ? "page" : undefined}>
              Pipeline stats
            </a>
          </nav>
        )}
        {viewer && (
          <form class="who" method="post" action="/ui/logout">
            <span>{viewer.role === "admin" ? "Admin key" : "Client key"}</span>
            <Csrf viewer={viewer} />
            <button type="submit">Sign out</button>
          </form>
        )}
      </header>
      <main id="main">{children}</main>
    </body>
  </html>
);

export const Csrf: FC<{ viewer: Viewer }> = ({ viewer }) => <input type="hidden" name="_csrf" value={viewer.csrf} />;

/** A labelled input with its validation message beside it (aria-describedby), keeping what was typed. */
export const Field: FC<{
  id: string;
  name: string;
  label: string;
  value?: string | undefined;
  error?: string | undefined;
  type?: string;
  hint?: string;
  multiline?: boolean;
  attrs?: Record<string, string | number | boolean>;
}> = ({ id, name, label, value = "", error, type = "text", hint, multiline = false, attrs = {} }) => {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const common = { id, name, "aria-invalid": error ? "true" : undefined, "aria-describedby": describedBy, ...attrs };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="muted small" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {multiline ? <textarea {...common}>{value}</textarea> : <input type={type} value={value} {...common} />}
      {error && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
};

export const Notice: FC<{ kind: "ok" | "error"; children?: Child }> = ({ kind, children }) => (
  <div class={`notice ${kind}`} role={kind === "error" ? "alert" : "status"}>
    {children}
  </div>
);

export function percent(x: number | null | undefined): string {
  return x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`;
}

/** A text cut to `max` characters, with … where it was cut (the page shows it whole elsewhere). */
export const shortened = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function minutesAgoText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 1) return "just now";
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min ago`;
}

export function durationText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  return m < 60 ? `${m}m` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
