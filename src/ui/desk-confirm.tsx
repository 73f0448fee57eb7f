/**
 * A destructive action in two steps without script: the first button (a <details> summary) only
 * opens the step that says what will happen; the form's own button does it. Keyboard and screen
 * readers get a disclosure, CSP stays script-free, and a stray click removes nothing.
 */
import type { Child, FC } from "hono/jsx";
import { Csrf, type Viewer } from "./layout";

export const ConfirmStep: FC<{
  /** Where the form posts. */
  action: string;
  viewer: Viewer;
  /** The first step's label ("Remove"), and its accessible name when the label alone is ambiguous in a list. */
  label: string;
  labelFor?: string;
  /** What happens, in one sentence, and the button that does it ("Yes, remove it"). */
  question: string;
  confirm: string;
  /** "danger" for removals; "secondary" for reversible changes (a rollback is itself versioned). */
  tone?: "danger" | "secondary";
  hidden?: Record<string, string>;
  /** Open from the start (the step's form came back with an error). */
  open?: boolean;
  /** More attributes of the <details> (the review page's key handler finds its step by one). */
  attrs?: Record<string, string>;
  testId?: string;
  children?: Child;
}> = ({ action, viewer, label, labelFor, question, confirm, tone = "danger", hidden = {}, open = false, attrs = {}, testId, children }) => (
  <details class="two-step" data-testid={testId} open={open} {...attrs}>
    <summary class={`button ${tone}`} aria-label={labelFor}>
      {label}
    </summary>
    <form method="post" action={action} class="confirm-step">
      <Csrf viewer={viewer} />
      {Object.entries(hidden).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <p class="small">{question}</p>
      {children}
      <button type="submit" class={tone === "danger" ? "danger" : ""}>
        {confirm}
      </button>
    </form>
  </details>
);
