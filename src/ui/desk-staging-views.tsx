/**
 * The staging queue's pieces: the tabs with their counts, the one-line row of the queue, and the full card (the ticket beside the FAQ it matched,
 * with approve and reject for admins) that a row opens and the review page shows.
 */
import type { Child } from "hono/jsx";
import type { FaqDetail, StagingItem, Ticket } from "./answers";
import type { DuplicateOf } from "./api";
import { ConfirmStep } from "./desk-confirm";
import { CleanedText, Removals } from "./desk-removals";
import { Csrf, Field, Notice, percent, type Viewer } from "./layout";

export interface ItemForm {
  values: Record<string, string>;
  errors: Record<string, string>;
  /** The approve was refused: an FAQ asks this question now (409 DUPLICATE_FAQ). */
  duplicateOf?: DuplicateOf;
}

export const STATUSES = ["pending", "approved", "rejected"] as const;
export type Status = (typeof STATUSES)[number];

export const ticketName = (item: StagingItem) => item.ticket.ticketId ?? item.ticket.id;
/** What the ticket asked (a MERGE item's own question is the FAQ's). */
export const askedText = (item: StagingItem, ticket: Ticket | null) =>
  ticket?.decision?.cleanedQuestion ?? item.variantText ?? item.question;

export const StatusTabs = ({ status, counts }: { status: Status; counts: Record<Status, number> | null }) => (
  <nav class="tabs" aria-label="Status">
    {STATUSES.map((s) => (
      <a href={`/ui/staging?status=${s}`} aria-current={s === status ? "page" : undefined}>
        {s} {counts && <span class="count">{counts[s]}</span>}
      </a>
    ))}
  </nav>
);

/** One line per item; its card opens in place (details), the review page has the evidence. */
export const QueueRow = ({
  item,
  ticket,
  children,
  open,
}: {
  item: StagingItem;
  ticket: Ticket | null;
  open: boolean;
  children?: Child;
}) => (
  <li class="queue-row" data-testid="staging-item">
    <details open={open}>
      <summary class="queue-summary">
        <span class={`badge ${item.action}`}>{item.action}</span>
        <span class="queue-q">{askedText(item, ticket)}</span>
        <span class="queue-meta small muted">
          {ticketName(item)} · {item.similarity === null ? "no FAQ was close" : `similarity ${percent(item.similarity)}`} ·{" "}
          {item.createdAt.slice(0, 10)}
        </span>
      </summary>
      <div class="queue-body">{children}</div>
    </details>
    <a class="button secondary queue-open" href={`/ui/staging/${item.id}`} aria-label={`Review ticket ${ticketName(item)} with evidence`}>
      Review
    </a>
  </li>
);

/** Where a form was posted from: the queue (back to it) or the review page (on to the next item). */
export type From = "queue" | "review";

export const StagingCard = ({
  item,
  faq,
  ticket,
  viewer,
  form,
  from,
}: {
  item: StagingItem;
  faq: FaqDetail | null;
  ticket: Ticket | null;
  viewer: Viewer;
  form?: ItemForm | undefined;
  from: From;
}) => {
  const values = form?.values ?? {};
  const errors = form?.errors ?? {};
  const question = values.question ?? (item.action === "MERGE" && faq ? faq.question : item.question);
  const duplicate = form?.duplicateOf;
  return (
    <article class="staging-card" aria-labelledby={`st-${item.id}-${from}`}>
      <div class="spread">
        <h2 id={`st-${item.id}-${from}`}>Ticket {ticketName(item)}</h2>
        <span class="row">
          <span class={`badge ${item.action}`}>{item.action === "MERGE" ? "MERGE into an FAQ" : "NEW FAQ"}</span>
          <span class="badge info">similarity {percent(item.similarity)}</span>
          <span class={`badge ${item.status}`}>{item.status}</span>
        </span>
      </div>
      {errors.form && <Notice kind="error">{errors.form}</Notice>}
      <div class="side-by-side">
        <div class="pane">
          <h3>From the ticket</h3>
          <p>
            <b>
              <CleanedText text={askedText(item, ticket)} />
            </b>
          </p>
          <p class="pre">
            <CleanedText text={ticket?.cleaning?.answer ?? item.answer} />
          </p>
          {ticket?.cleaning && (
            <Removals
              removals={ticket.cleaning.removals}
              restoreInto={item.status === "pending" && viewer.role === "admin" ? `q-${item.id}-${from}` : null}
            />
          )}
        </div>
        <div class="pane">
          <h3>Matched FAQ (when staged)</h3>
          {faq ? (
            <>
              <p>
                <a href={`/ui/faqs/${faq.id}`}>
                  <b>{faq.question}</b>
                </a>
              </p>
              <p class="pre">{faq.answer}</p>
              {faq.variants.length > 0 && <p class="small muted">Variants: {faq.variants.map((v) => `“${v.variantText}”`).join(", ")}</p>}
            </>
          ) : (
            <p class="muted">
              {item.faqId
                ? "That FAQ no longer exists."
                : "None: approving creates a new FAQ. The decision below says why (no FAQ close enough, or what differs from the closest)."}
            </p>
          )}
        </div>
      </div>
      <p class="small muted">
        Decision by {item.judge ?? "the thresholds"}
        {item.rationale ? `: ${item.rationale}` : ""}
        {item.rejectReason ? ` · rejected: ${item.rejectReason}` : ""}
      </p>
      {item.status === "approved" && item.resultFaqId && (
        <p>
          <a href={`/ui/faqs/${item.resultFaqId}`}>Open the resulting FAQ</a>
        </p>
      )}
      {item.status === "pending" && viewer.role !== "admin" && (
        <p class="muted" data-testid="needs-admin">
          Approving and rejecting need an admin key: this session signed in with a client key.
        </p>
      )}
      {item.status === "pending" && viewer.role === "admin" && (
        <div class="grid review-forms">
          <form method="post" action={`/ui/staging/${item.id}/approve`} data-review-approve={from === "review" ? "" : undefined}>
            <Csrf viewer={viewer} />
            <input type="hidden" name="from" value={from} />
            <input type="hidden" name="originalQuestion" value={values.originalQuestion ?? question} />
            <Field
              id={`q-${item.id}-${from}`}
              name="question"
              label={item.action === "MERGE" ? "FAQ question" : "Question"}
              value={question}
              error={errors.question}
            />
            <Field
              id={`a-${item.id}-${from}`}
              name="answer"
              label={item.action === "MERGE" ? "Merged answer" : "Answer"}
              multiline
              value={values.answer ?? item.answer}
              error={errors.answer}
            />
            {duplicate && (
              <p class="field-error">
                <label class="check">
                  <input type="checkbox" name="allowDuplicate" value="1" /> Create it anyway, although FAQ “{duplicate.question}” asks this
                </label>
              </p>
            )}
            <p>
              <button type="submit" aria-keyshortcuts={from === "review" ? "a" : undefined}>
                Approve
              </button>{" "}
              <span class="small muted">Edit the text first if it needs it.</span>
            </p>
          </form>
          <div>
            {duplicate && (
              <form method="post" action={`/ui/staging/${item.id}/reject`} class="duplicate-reject">
                <Csrf viewer={viewer} />
                <input type="hidden" name="from" value={from} />
                <input type="hidden" name="reason" value={`Duplicate of FAQ ${duplicate.id}: ${duplicate.question}`.slice(0, 500)} />
                <button type="submit" class="danger">
                  Reject as a duplicate
                </button>
              </form>
            )}
            <ConfirmStep
              action={`/ui/staging/${item.id}/reject`}
              viewer={viewer}
              label="Reject…"
              labelFor={`Reject ticket ${ticketName(item)}`}
              question="Reject this proposal? The knowledge base stays as it is; the reason is kept with the item."
              confirm="Reject this proposal"
              hidden={{ from }}
              open={errors.reason !== undefined}
              attrs={from === "review" ? { "data-review-reject": "" } : {}}
              testId="reject-step"
            >
              <Field
                id={`r-${item.id}-${from}`}
                name="reason"
                label="Reason for rejecting"
                value={values.reason}
                error={errors.reason}
                attrs={{ required: true, maxlength: 500 }}
              />
            </ConfirmStep>
          </div>
        </div>
      )}
    </article>
  );
};
