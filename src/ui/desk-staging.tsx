/**
 * The review desk's staging queue (seed 002, Enhancement 3): each MERGE/NEW proposal of the
 * ticket pipeline beside the FAQ it matched; admins approve (after editing, if they like) or
 * reject. Also the pipeline statistics page. Data and actions go through /v1 as the user.
 */
import type { Hono } from "hono";
import { api, apiData, done, screen, formField, type UiContext, type UiEnv, viewerOf } from "./context";
import { Csrf, Field, Layout, Notice, percent, type Viewer } from "./layout";

interface StagingItem {
  id: string;
  action: "MERGE" | "NEW";
  status: "pending" | "approved" | "rejected";
  question: string;
  answer: string;
  tags: string[];
  faqId: string | null;
  variantText: string | null;
  similarity: number | null;
  judge: string | null;
  rationale: string | null;
  ticket: { id: string; ticketId: string | null };
  createdAt: string;
  rejectReason: string | null;
  resultFaqId: string | null;
}
interface FaqBrief {
  id: string;
  question: string;
  answer: string;
  variants: { id: string; variantText: string }[];
}
interface TicketBrief {
  answer: string;
  decision: { cleanedQuestion: string | null } | null;
}
interface ItemForm {
  values: Record<string, string>;
  errors: Record<string, string>;
}

const STATUSES = ["pending", "approved", "rejected"] as const;

const StagingCard = ({
  item,
  faq,
  ticket,
  viewer,
  form,
}: {
  item: StagingItem;
  faq: FaqBrief | null;
  ticket: TicketBrief | null;
  viewer: Viewer;
  form?: ItemForm | undefined;
}) => {
  const values = form?.values ?? {};
  const errors = form?.errors ?? {};
  const question = values.question ?? (item.action === "MERGE" && faq ? faq.question : item.question);
  return (
    <article class="card" data-testid="staging-item" aria-labelledby={`st-${item.id}`}>
      <div class="spread">
        <h2 id={`st-${item.id}`}>Ticket {item.ticket.ticketId ?? item.ticket.id}</h2>
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
            <b>{ticket?.decision?.cleanedQuestion ?? item.variantText ?? item.question}</b>
          </p>
          <p class="pre">{ticket?.answer ?? item.answer}</p>
        </div>
        <div class="pane">
          <h3>Matched FAQ</h3>
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
                : "Not merged into an FAQ: approving creates a new FAQ. The decision below says why (no FAQ close enough, or what differs from the closest)."}
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
      {item.status === "pending" && viewer.role === "admin" && (
        <div class="grid">
          <form method="post" action={`/ui/staging/${item.id}/approve`}>
            <Csrf viewer={viewer} />
            <input type="hidden" name="originalQuestion" value={values.originalQuestion ?? question} />
            <Field
              id={`q-${item.id}`}
              name="question"
              label={item.action === "MERGE" ? "FAQ question" : "Question"}
              value={question}
              error={errors.question}
            />
            <Field
              id={`a-${item.id}`}
              name="answer"
              label={item.action === "MERGE" ? "Merged answer" : "Answer"}
              multiline
              value={values.answer ?? item.answer}
              error={errors.answer}
            />
            <p>
              <button type="submit">Approve</button> <span class="small muted">Edit the text first if it needs it.</span>
            </p>
          </form>
          <form method="post" action={`/ui/staging/${item.id}/reject`}>
            <Csrf viewer={viewer} />
            <Field id={`r-${item.id}`} name="reason" label="Reason for rejecting" value={values.reason} error={errors.reason} />
            <p>
              <button type="submit" class="danger">
                Reject
              </button>
            </p>
          </form>
        </div>
      )}
    </article>
  );
};

async function renderQueue(
  c: UiContext,
  opts: { status?: string; forms?: Record<string, ItemForm>; notice?: { kind: "ok" | "error"; text: string; faqId?: string | null } } = {},
  code = 200,
) {
  const status = (STATUSES as readonly string[]).includes(opts.status ?? "") ? opts.status! : "pending";
  const { items } = await apiData<{ items: StagingItem[] }>(c, `/v1/staging?status=${status}&limit=50`);
  const faqIds = [...new Set(items.map((i) => i.faqId).filter((id): id is string => id !== null))];
  const faqs = new Map<string, FaqBrief>();
  const tickets = new Map<string, TicketBrief>();
  // The ticket as it came in (a MERGE item holds the judge's merged answer, not the ticket's own).
  await Promise.all([
    ...faqIds.map(async (id) => {
      const r = await api<FaqBrief>(c, "GET", `/v1/faqs/${id}`);
      if (r.ok) faqs.set(id, r.data);
    }),
    ...items.map(async (item) => {
      const r = await api<TicketBrief>(c, "GET", `/v1/tickets/${item.ticket.id}`);
      if (r.ok) tickets.set(item.id, r.data);
    }),
  ]);
  const viewer = viewerOf(c);
  return c.html(
    <Layout title="Staging queue" section="staging" viewer={viewer}>
      <div class="spread">
        <h1>Staging queue</h1>
        <nav class="row" aria-label="Status">
          {STATUSES.map((s) => (
            <a
              href={`/ui/staging?status=${s}`}
              aria-current={s === status ? "page" : undefined}
              class={`button ${s === status ? "" : "secondary"}`}
            >
              {s}
            </a>
          ))}
        </nav>
      </div>
      {opts.notice && (
        <Notice kind={opts.notice.kind}>
          {opts.notice.text} {opts.notice.faqId && <a href={`/ui/faqs/${opts.notice.faqId}`}>Open the FAQ</a>}
        </Notice>
      )}
      {viewer.role !== "admin" && status === "pending" && <p class="muted">Approving and rejecting needs an admin key.</p>}
      {items.length === 0 ? (
        <p class="muted">Nothing {status} right now.</p>
      ) : (
        items.map((item) => (
          <StagingCard
            item={item}
            faq={item.faqId ? (faqs.get(item.faqId) ?? null) : null}
            ticket={tickets.get(item.id) ?? null}
            viewer={viewer}
            form={opts.forms?.[item.id]}
          />
        ))
      )}
    </Layout>,
    code as 200,
  );
}

interface PipelineStats {
  days: number;
  byAction: Record<string, number>;
  byDay: ({ day: string } & Record<string, number | string>)[];
  tickets: Record<string, number>;
  staging: { action: string; status: string; count: number }[];
  variantsPerFaq: { faqs: number; variants: number; pipelineVariants: number; mean: number; max: number };
  duplicateCreation: { created: number; checked: number; likelyDuplicates: number | null; rate: number | null };
}

const ACTIONS = ["SKIP", "ADD_VARIANT", "MERGE", "NEW"] as const;

const PipelinePage = ({ stats, viewer }: { stats: PipelineStats; viewer: Viewer }) => (
  <Layout title="Pipeline stats" section="pipeline" viewer={viewer}>
    <h1>Ticket pipeline · last {stats.days} days</h1>
    <div class="kpis" data-testid="pipeline-kpis">
      {ACTIONS.map((a) => (
        <div class="kpi">
          <b>{stats.byAction[a] ?? 0}</b>
          {a.replace("_", " ").toLowerCase()}
        </div>
      ))}
      <div class="kpi">
        <b>{stats.variantsPerFaq.mean.toFixed(2)}</b>variants per FAQ
      </div>
      <div class="kpi">
        <b>{stats.duplicateCreation.rate === null ? "—" : percent(stats.duplicateCreation.rate)}</b>likely duplicate FAQs (
        {stats.duplicateCreation.checked} checked)
      </div>
    </div>
    <div class="grid">
      <section class="card">
        <h2>Decisions by day</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {ACTIONS.map((a) => (
                  <th scope="col">{a}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {stats.byDay.map((d) => (
                <tr>
                  <td>{d.day}</td>
                  {ACTIONS.map((a) => (
                    <td>{d[a] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section class="card">
        <h2>Tickets and staging</h2>
        <ul class="list-plain">
          {Object.entries(stats.tickets).map(([s, n]) => (
            <li class="spread">
              <span>tickets {s}</span>
              <b>{n}</b>
            </li>
          ))}
          {stats.staging.map((s) => (
            <li class="spread">
              <span>
                staging {s.action} {s.status}
              </span>
              <b>{s.count}</b>
            </li>
          ))}
          <li class="spread">
            <span>FAQs · variants (from the pipeline) · most on one FAQ</span>
            <b>
              {stats.variantsPerFaq.faqs} · {stats.variantsPerFaq.variants} ({stats.variantsPerFaq.pipelineVariants}) ·{" "}
              {stats.variantsPerFaq.max}
            </b>
          </li>
        </ul>
      </section>
    </div>
  </Layout>
);

export function stagingRoutes(ui: Hono<UiEnv>) {
  ui.get("/staging", screen, async (c) => {
    const approved = c.req.query("approved");
    if (approved) {
      const r = await api<StagingItem>(c, "GET", `/v1/staging/${encodeURIComponent(approved)}`);
      if (r.ok)
        return renderQueue(c, {
          notice: { kind: "ok", text: `Approved ticket ${r.data.ticket.ticketId ?? ""}.`, faqId: r.data.resultFaqId },
        });
    }
    return renderQueue(c, { status: c.req.query("status") ?? "pending" });
  });

  ui.post("/staging/:id/approve", screen, async (c) => {
    const id = c.req.param("id");
    const values = {
      question: await formField(c, "question"),
      answer: await formField(c, "answer"),
      originalQuestion: await formField(c, "originalQuestion"),
    };
    // Only an edited question is sent: an unchanged MERGE keeps the FAQ's own question.
    const body = { answer: values.answer, ...(values.question !== values.originalQuestion ? { question: values.question } : {}) };
    const result = await api<StagingItem>(c, "POST", `/v1/staging/${encodeURIComponent(id)}/approve`, body);
    if (result.ok) return done(c, `/ui/staging?approved=${encodeURIComponent(id)}`);
    if (result.status === 403 || result.status === 404) return c.text(result.message, result.status);
    const errors: Record<string, string> = {};
    for (const d of result.details) errors[d.path === "(root)" ? "form" : d.path] ??= d.message;
    if (result.details.length === 0) errors.form = result.message;
    return renderQueue(c, { forms: { [id]: { values, errors } } }, result.status);
  });

  ui.post("/staging/:id/reject", screen, async (c) => {
    const id = c.req.param("id");
    const reason = await formField(c, "reason");
    const result = await api(c, "POST", `/v1/staging/${encodeURIComponent(id)}/reject`, { reason });
    if (result.ok) return done(c, "/ui/staging?status=rejected");
    if (result.status === 403 || result.status === 404) return c.text(result.message, result.status);
    const error = result.details[0]?.message ?? result.message;
    return renderQueue(
      c,
      { forms: { [id]: { values: { reason }, errors: result.details.length > 0 ? { reason: error } : { form: error } } } },
      result.status,
    );
  });

  ui.get("/pipeline", screen, async (c) => {
    const stats = await apiData<PipelineStats>(c, "/v1/pipeline/stats?days=30");
    return c.html(<PipelinePage stats={stats} viewer={viewerOf(c)} />);
  });
}
