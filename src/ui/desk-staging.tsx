/**
 * The review desk's staging queue (seed 002, Enhancement 3): the MERGE/NEW proposals of the ticket
 * pipeline. The queue is one line per item (its card opens in place), with a tab per status and
 * its count; the review page shows one item at a time with the evidence of its decision, decided
 * again against the knowledge base as it is now, and keys to approve, reject and move on. Admins
 * approve (after editing, if they like) or reject. Data and actions go through /v1 as the user.
 */
import { CleanedText } from "./desk-removals";
import type { Hono } from "hono";
import { reviewScript } from "./assets";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FaqDetail, StagingItem, Ticket } from "./answers";
import { api, apiData, apiResult } from "./api";
import { done, screen, formField, type UiContext, type UiEnv, UiFailure, viewerOf } from "./context";
import { doneWith, quoted } from "./desk-flash";
import { EvidencePanel, KnowledgeBaseChanged } from "./desk-evidence";
import { askedText, type From, type ItemForm, QueueRow, StagingCard, STATUSES, StatusTabs, ticketName } from "./desk-staging-views";
import { takeFlash } from "./flash";
import { Layout, Notice } from "./layout";

/** Items the queue shows, and the review page steps through (newest first, as the queue lists them). */
const PAGE = 50;
const REVIEW_WINDOW = 200;

/** The FAQs the items merge into and the tickets as they came in (a MERGE item holds the judge's merged answer, not the ticket's own). */
async function briefs(c: UiContext, items: readonly StagingItem[]) {
  const faqs = new Map<string, FaqDetail>();
  const tickets = new Map<string, Ticket>();
  await Promise.all([
    ...[...new Set(items.flatMap((i) => (i.faqId ? [i.faqId] : [])))].map(async (id) => {
      const r = await apiResult(api(c).faqs[":id"].$get({ param: { id: encodeURIComponent(id) } }));
      if (r.ok) faqs.set(id, r.data);
    }),
    ...items.map(async (item) => {
      const r = await apiResult(api(c).tickets[":id"].$get({ param: { id: encodeURIComponent(item.ticket.id) } }));
      if (r.ok) tickets.set(item.id, r.data);
    }),
  ]);
  return { faqs, tickets };
}

async function renderQueue(c: UiContext, requested: string | undefined) {
  const status = STATUSES.find((s) => s === requested) ?? "pending";
  const page = await apiData(api(c).staging.$get({ query: { status, limit: String(PAGE) } }));
  const { faqs, tickets } = await briefs(c, page.items);
  const viewer = viewerOf(c);
  const flash = takeFlash(c);
  const approved = c.req.query("approved");
  const justApproved = approved ? await apiResult(api(c).staging[":id"].$get({ param: { id: encodeURIComponent(approved) } })) : null;
  return c.html(
    <Layout title="Staging queue" section="staging" viewer={viewer}>
      <div class="spread">
        <h1>Staging queue</h1>
        {status === "pending" && page.counts.pending > 0 && (
          <a class="button" href="/ui/staging/review">
            Review one at a time
          </a>
        )}
      </div>
      <StatusTabs status={status} counts={page.counts} />
      {justApproved?.ok && (
        <Notice kind="ok">
          Approved ticket {ticketName(justApproved.data)}.{" "}
          {justApproved.data.resultFaqId && <a href={`/ui/faqs/${justApproved.data.resultFaqId}`}>Open the FAQ</a>}
        </Notice>
      )}
      {flash && <Notice kind={flash.kind}>{flash.text}</Notice>}
      {viewer.role !== "admin" && status === "pending" && <p class="muted">Approving and rejecting needs an admin key.</p>}
      {page.items.length === 0 ? (
        <p class="muted">Nothing {status} right now.</p>
      ) : (
        <ul class="queue" aria-label={`${status} items`}>
          {page.items.map((item) => (
            <QueueRow item={item} ticket={tickets.get(item.id) ?? null} open={false}>
              <StagingCard
                item={item}
                faq={item.faqId ? (faqs.get(item.faqId) ?? null) : null}
                ticket={tickets.get(item.id) ?? null}
                viewer={viewer}
                from="queue"
              />
            </QueueRow>
          ))}
        </ul>
      )}
      {page.nextCursor && <p class="small muted">The newest {PAGE} are shown; review them to see older ones.</p>}
    </Layout>,
  );
}

/** The pending items' ids in queue order (the review page's previous and next). */
async function pendingIds(c: UiContext): Promise<string[]> {
  return (await apiData(api(c).staging.$get({ query: { status: "pending", limit: String(REVIEW_WINDOW) } }))).items.map((i) => i.id);
}

async function renderItem(c: UiContext, id: string, form?: ItemForm, code: ContentfulStatusCode = 200) {
  const param = { id: encodeURIComponent(id) };
  const item = await apiResult(api(c).staging[":id"].$get({ param }));
  if (!item.ok) throw new UiFailure(item.status, item.message);
  const [pending, { faqs, tickets }, decided] = await Promise.all([
    pendingIds(c),
    briefs(c, [item.data]),
    apiResult(api(c).staging[":id"].decision.$get({ param })),
  ]);
  const viewer = viewerOf(c);
  const at = pending.indexOf(id);
  const prev = at > 0 ? pending[at - 1] : undefined;
  const next = at >= 0 ? pending[at + 1] : undefined;
  const flash = takeFlash(c);
  const ticket = tickets.get(item.data.id) ?? null;
  const decision = decided.ok ? decided.data : null;
  const keys = item.data.status === "pending" && viewer.role === "admin";
  return c.html(
    <Layout title={`Review ticket ${ticketName(item.data)}`} section="staging" viewer={viewer}>
      <nav class="review-nav" aria-label="Review">
        <a href="/ui/staging">← Staging queue</a>
        <span class="small muted" data-testid="review-position">
          {at >= 0 ? `Item ${at + 1} of ${pending.length} pending` : `${item.data.status}, not in the pending queue`}
        </span>
        <span class="row">
          {prev ? (
            <a class="button secondary" href={`/ui/staging/${prev}`} rel="prev" data-review-prev="" aria-keyshortcuts="k p">
              ← Previous
            </a>
          ) : null}
          {next ? (
            <a class="button secondary" href={`/ui/staging/${next}`} rel="next" data-review-next="" aria-keyshortcuts="j n">
              Next →
            </a>
          ) : null}
        </span>
      </nav>
      <h1 class="review-title">
        <CleanedText text={askedText(item.data, ticket)} />
      </h1>
      {flash && <Notice kind={flash.kind}>{flash.text}</Notice>}
      {form?.duplicateOf && (
        <Notice kind="error">
          Not approved: FAQ{" "}
          <a href={`/ui/faqs/${form.duplicateOf.id}`}>
            <b>“{form.duplicateOf.question}”</b>
          </a>{" "}
          already asks this question. Reject the item as a duplicate, or tick “Create it anyway” and approve again.
        </Notice>
      )}
      {decision && !form?.duplicateOf && <KnowledgeBaseChanged decision={decision} />}
      {keys && (
        <p class="small muted keys" data-testid="review-keys">
          Keys: <kbd>a</kbd> approve · <kbd>r</kbd> reject · <kbd>j</kbd>/<kbd>n</kbd> next · <kbd>k</kbd>/<kbd>p</kbd> previous
        </p>
      )}
      <div class="grid wide-left">
        <section class="card">
          <StagingCard
            item={item.data}
            faq={item.data.faqId ? (faqs.get(item.data.faqId) ?? null) : null}
            ticket={ticket}
            viewer={viewer}
            form={form}
            from="review"
          />
        </section>
        <EvidencePanel decision={decision} error={decided.ok ? undefined : `Could not decide it again now: ${decided.message}`} />
      </div>
      {keys && <script src={reviewScript.path} defer></script>}
    </Layout>,
    code,
  );
}

/** After a review from the review page: the item that followed it, or the queue when none is left. */
function nextAfter(pending: readonly string[], id: string): string {
  const at = pending.indexOf(id);
  const next = pending[at + 1] ?? (at > 0 ? pending[at - 1] : undefined);
  return next && next !== id ? `/ui/staging/${next}` : "/ui/staging";
}

const fromOf = async (c: UiContext): Promise<From> => ((await formField(c, "from")) === "review" ? "review" : "queue");

export function stagingRoutes(ui: Hono<UiEnv>) {
  ui.get("/staging", screen, (c) => renderQueue(c, c.req.query("status")));

  // The first pending item, or the queue (which says there is nothing to review).
  ui.get("/staging/review", screen, async (c) => {
    const [first] = await pendingIds(c);
    return c.redirect(first ? `/ui/staging/${first}` : "/ui/staging", 303);
  });

  ui.get("/staging/:id", screen, (c) => renderItem(c, c.req.param("id")));

  ui.post("/staging/:id/approve", screen, async (c) => {
    const id = c.req.param("id");
    const from = await fromOf(c);
    const values = {
      question: await formField(c, "question"),
      answer: await formField(c, "answer"),
      originalQuestion: await formField(c, "originalQuestion"),
    };
    const pending = from === "review" ? await pendingIds(c) : [];
    // Only an edited question is sent: an unchanged MERGE keeps the FAQ's own question.
    const body = {
      answer: values.answer,
      ...(values.question !== values.originalQuestion ? { question: values.question } : {}),
      ...((await formField(c, "allowDuplicate")) === "1" ? { allowDuplicate: true } : {}),
    };
    const result = await apiResult(api(c).staging[":id"].approve.$post({ param: { id: encodeURIComponent(id) }, json: body }));
    if (result.ok) {
      // The queue's own notice links the FAQ the approval made or changed.
      if (from === "queue") return done(c, `/ui/staging?approved=${encodeURIComponent(id)}`);
      const made = result.data.action === "NEW" ? "created a new FAQ" : "updated the FAQ";
      return doneWith(c, nextAfter(pending, id), `Approved ticket ${ticketName(result.data)}: ${made}.`);
    }
    if (result.status === 403 || result.status === 404) return c.text(result.message, result.status);
    const errors: Record<string, string> = {};
    for (const d of result.details) errors[d.path === "(root)" ? "form" : d.path] ??= d.message;
    if (result.details.length === 0 && !result.duplicateOf) errors.form = result.message;
    return renderItem(c, id, { values, errors, ...(result.duplicateOf ? { duplicateOf: result.duplicateOf } : {}) }, result.status);
  });

  ui.post("/staging/:id/reject", screen, async (c) => {
    const id = c.req.param("id");
    const from = await fromOf(c);
    const reason = await formField(c, "reason");
    const pending = from === "review" ? await pendingIds(c) : [];
    const result = await apiResult(api(c).staging[":id"].reject.$post({ param: { id: encodeURIComponent(id) }, json: { reason } }));
    if (result.ok)
      return doneWith(
        c,
        from === "review" ? nextAfter(pending, id) : "/ui/staging",
        `Rejected ticket ${ticketName(result.data)}: ${quoted(reason.trim())}.`,
      );
    if (result.status === 403 || result.status === 404) return c.text(result.message, result.status);
    const error = result.details[0]?.message ?? result.message;
    return renderItem(
      c,
      id,
      { values: { reason }, errors: result.details.length > 0 ? { reason: error } : { form: error } },
      result.status,
    );
  });
}
