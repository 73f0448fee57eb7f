/**
 * The review desk's FAQ screens (seed 002): the list with the real hybrid search (and why each
 * result matched), and one FAQ with its variants, related FAQs, versions (diff, rollback), hits
 * per day and the alternate phrasings searches suggested. Writes go through /v1 as the user.
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Faq, FaqSearchResult, FaqVersion } from "./answers";
import { api, apiData, apiResult, type FieldIssue, formBody } from "./api";
import { screen, formField, type UiContext, type UiEnv, viewerOf } from "./context";
import { doneWith, quoted } from "./desk-flash";
import { takeFlash } from "./flash";
import { FaqSidePanels, type PageState } from "./desk-faq-panels";
import { MATCH_WORDS, WordDiff } from "./desk-views";
import { Csrf, Field, Layout, Notice, percent } from "./layout";

/** The page's version rows: the stored versions and the FAQ as it is now, marked "current". */
type VersionRow = Omit<FaqVersion, "changeType" | "changedBy"> & { changeType: FaqVersion["changeType"] | "current" };

const HIT_CHART_DAYS = 30;

/** API issues → form fields; nested paths ("tags.2") belong to their field, "(root)" to the form. */
function fieldErrors(details: readonly FieldIssue[], fallback: string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const d of details) errors[d.path === "(root)" ? "form" : d.path.split(".")[0]!] ??= d.message;
  if (details.length === 0) errors.form = fallback;
  return errors;
}

const excerpt = (text: string, max = 220) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

async function renderList(c: UiContext) {
  const q = (c.req.query("q") ?? "").trim();
  const viewer = viewerOf(c);
  let results: FaqSearchResult[] | null = null;
  let faqs: Faq[] = [];
  let error: string | undefined;
  let degraded: string[] = [];
  if (q !== "") {
    const r = await apiResult(api(c).faqs.search.$post({ json: { query: q, limit: 20 } }));
    if (r.ok) ({ results, degraded } = r.data);
    else error = r.details[0]?.message ?? r.message;
  } else {
    faqs = (await apiData(api(c).faqs.$get({ query: { limit: "100" } }))).faqs;
  }
  return c.html(
    <Layout title="FAQs" section="faqs" viewer={viewer}>
      <h1>FAQs</h1>
      <form method="get" action="/ui/faqs" role="search" class="card">
        <Field id="faq-q" name="q" type="search" label="Search FAQs (hybrid: words and meaning)" value={q} error={error} />
        <p>
          <button type="submit">Search</button> {q !== "" && <a href="/ui/faqs">Show all</a>}
        </p>
      </form>
      {degraded.length > 0 && <Notice kind="error">Searched without: {degraded.join(", ")}</Notice>}
      <section class="card results" aria-live="polite">
        {results !== null ? (
          <>
            <h2>
              {results.length} result{results.length === 1 ? "" : "s"} for “{q}”
            </h2>
            <ol class="list-plain" data-testid="search-results">
              {results.map((r) => (
                <li>
                  <a href={`/ui/faqs/${r.id}`}>
                    <b>{r.question}</b>
                  </a>
                  <p class="small">{excerpt(r.answer)}</p>
                  <p class="small muted">
                    Matched by {r.matchType.map((m) => MATCH_WORDS[m] ?? m).join(" + ")}
                    {r.matchedVariant ? ` · variant “${r.matchedVariant.variantText}”` : ""}
                    {r.similarity !== null ? ` · similarity ${percent(r.similarity)}` : ""}
                  </p>
                </li>
              ))}
            </ol>
          </>
        ) : (
          <>
            <h2>All FAQs, newest first</h2>
            {faqs.length === 0 && <p class="muted">No FAQs yet.</p>}
            <ul class="list-plain">
              {faqs.map((f) => (
                <li>
                  <a href={`/ui/faqs/${f.id}`}>{f.question}</a>
                  <span class="small muted">
                    {" "}
                    · {f.tags.join(", ") || "no tags"} · v{f.version}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </Layout>,
  );
}

async function renderFaq(c: UiContext, id: string, state: PageState = {}, status: ContentfulStatusCode = 200) {
  const viewer = viewerOf(c);
  const faqApi = api(c).faqs;
  const param = { id: encodeURIComponent(id) };
  const [faq, versions, others, suggestions, hits] = await Promise.all([
    apiData(faqApi[":id"].$get({ param })),
    apiData(faqApi[":id"].versions.$get({ param, query: {} })),
    apiData(faqApi.$get({ query: { limit: "100" } })),
    apiData(faqApi.suggestions.$get({ query: { limit: "200" } })),
    apiData(faqApi[":id"].hits.$get({ param, query: { days: String(HIT_CHART_DAYS) } })),
  ]);
  const { daily } = hits;
  const current: VersionRow = {
    versionNumber: faq.version,
    question: faq.question,
    answer: faq.answer,
    tags: faq.tags,
    changeType: "current",
    changeReason: null,
    changedAt: faq.updatedAt,
  };
  const all: VersionRow[] = [...versions.versions.filter((v) => v.versionNumber !== faq.version), current].sort(
    (a, b) => a.versionNumber - b.versionNumber,
  );
  const to = all.find((v) => v.versionNumber === Number(c.req.query("to"))) ?? current;
  const from = all.find((v) => v.versionNumber === Number(c.req.query("from"))) ?? all[Math.max(0, all.indexOf(to) - 1)]!;
  const mine = suggestions.suggestions.filter((s) => s.faqId === id || s.alternateFaqId === id);
  const edit = state.edit ?? { values: { question: faq.question, answer: faq.answer, tags: faq.tags.join(", ") }, errors: {} };
  // A failed form's message, else what the last form did (after its redirect).
  const notice = state.notice ?? takeFlash(c);
  const base = `/ui/faqs/${id}`;
  return c.html(
    <Layout title={faq.question} section="faqs" viewer={viewer}>
      <p class="small">
        <a href="/ui/faqs">← All FAQs</a>
      </p>
      <h1 data-testid="faq-question">{faq.question}</h1>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <div class="grid wide-left">
        <div>
          <section class="card" aria-labelledby="answer-title">
            <div class="spread">
              <h2 id="answer-title">Answer</h2>
              <span class="small muted">
                version {faq.version} · {faq.tags.join(", ") || "no tags"} · index {faq.indexState}
              </span>
            </div>
            <p class="pre" data-testid="faq-answer">
              {faq.answer}
            </p>
            <details open={Object.keys(edit.errors).length > 0}>
              <summary>Edit this FAQ</summary>
              {edit.errors.form && <Notice kind="error">{edit.errors.form}</Notice>}
              <form method="post" action={`${base}/edit`}>
                <Csrf viewer={viewer} />
                <Field id="edit-question" name="question" label="Question" value={edit.values.question} error={edit.errors.question} />
                <Field id="edit-answer" name="answer" label="Answer" multiline value={edit.values.answer} error={edit.errors.answer} />
                <Field id="edit-tags" name="tags" label="Tags (comma-separated)" value={edit.values.tags} error={edit.errors.tags} />
                <Field
                  id="edit-reason"
                  name="changeReason"
                  label="Reason for the change (optional)"
                  value={edit.values.changeReason}
                  error={edit.errors.changeReason}
                />
                <p>
                  <button type="submit">Save a new version</button>
                </p>
              </form>
            </details>
          </section>
          <section class="card" aria-labelledby="versions-title">
            <h2 id="versions-title">Versions</h2>
            <div class="table-wrap">
              <table data-testid="versions">
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Replaced by</th>
                    <th scope="col">When</th>
                    <th scope="col">
                      <span class="muted">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...all].reverse().map((v) => (
                    <tr>
                      <td>v{v.versionNumber}</td>
                      <td>
                        {v.changeType === "current" ? "current" : v.changeType}
                        {v.changeReason ? <span class="small muted"> · {v.changeReason}</span> : ""}
                      </td>
                      <td class="small">{v.changedAt.slice(0, 16).replace("T", " ")}</td>
                      <td>
                        {v.versionNumber !== faq.version && (
                          // The confirm step is a page of its own (desk-rollback.tsx): it shows the diff first.
                          <a
                            class="button secondary small-button"
                            href={`${base}/rollback/${v.versionNumber}`}
                            aria-label={`Roll back to version ${v.versionNumber}`}
                          >
                            Roll back…
                          </a>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {all.length > 1 && (
              <>
                <form method="get" action={base} class="row">
                  <label for="diff-from">Compare</label>
                  <select id="diff-from" name="from">
                    {all.map((v) => (
                      <option value={String(v.versionNumber)} selected={v === from}>
                        v{v.versionNumber}
                      </option>
                    ))}
                  </select>
                  <label for="diff-to">with</label>
                  <select id="diff-to" name="to">
                    {all.map((v) => (
                      <option value={String(v.versionNumber)} selected={v === to}>
                        v{v.versionNumber}
                      </option>
                    ))}
                  </select>
                  <button type="submit" class="secondary">
                    Show diff
                  </button>
                </form>
                <h3>
                  v{from.versionNumber} → v{to.versionNumber}
                </h3>
                <WordDiff before={from.question} after={to.question} label="Question diff" />
                <hr />
                <WordDiff before={from.answer} after={to.answer} label="Answer diff" />
              </>
            )}
          </section>
        </div>
        <div>
          <FaqSidePanels faq={faq} others={others.faqs} suggestions={mine} daily={daily} state={state} viewer={viewer} />
        </div>
      </div>
    </Layout>,
    status,
  );
}

/** A failed write: the page again with the API's messages beside the fields (or a 403/404 page for those). */
async function failed(
  c: UiContext,
  id: string,
  result: { status: ContentfulStatusCode; message: string; details: FieldIssue[] },
  form: keyof PageState,
  values: Record<string, string>,
) {
  if (result.status === 403 || result.status === 404) return c.text(result.message, result.status);
  const state: PageState =
    form === "notice"
      ? { notice: { kind: "error", text: result.message } }
      : { [form]: { values, errors: fieldErrors(result.details, result.message) } };
  return renderFaq(c, id, state, result.status);
}

export function faqRoutes(ui: Hono<UiEnv>) {
  ui.get("/faqs", screen, (c) => renderList(c));
  ui.get("/faqs/:id", screen, (c) => renderFaq(c, c.req.param("id")));

  ui.post("/faqs/:id/edit", screen, async (c) => {
    const id = c.req.param("id");
    const values = {
      question: await formField(c, "question"),
      answer: await formField(c, "answer"),
      tags: await formField(c, "tags"),
      changeReason: await formField(c, "changeReason"),
    };
    const tags = values.tags
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== "");
    const body = {
      question: values.question,
      answer: values.answer,
      tags,
      ...(values.changeReason.trim() ? { changeReason: values.changeReason } : {}),
    };
    const result = await apiResult(api(c).faqs[":id"].$patch({ param: { id: encodeURIComponent(id) }, json: body }));
    return result.ok
      ? doneWith(c, `/ui/faqs/${id}`, `Saved: this is version ${result.data.version}.`)
      : failed(c, id, result, "edit", values);
  });

  ui.post("/faqs/:id/variants", screen, async (c) => {
    const id = c.req.param("id");
    const variantText = await formField(c, "variantText");
    const result = await apiResult(api(c).faqs[":id"].variants.$post({ param: { id: encodeURIComponent(id) }, json: { variantText } }));
    return result.ok
      ? doneWith(c, `/ui/faqs/${id}`, `Added the phrasing ${quoted(variantText.trim())}.`)
      : failed(c, id, result, "variant", { variantText });
  });

  ui.post("/faqs/:id/variants/:variantId/delete", screen, async (c) => {
    const { id, variantId } = c.req.param();
    const label = await formField(c, "label");
    const result = await apiResult(api(c).faqs.variants[":variantId"].$delete({ param: { variantId: encodeURIComponent(variantId) } }));
    return result.ok
      ? doneWith(c, `/ui/faqs/${id}`, label ? `Removed the phrasing ${quoted(label)}.` : "Removed the phrasing.")
      : failed(c, id, result, "notice", {});
  });

  ui.post("/faqs/:id/related", screen, async (c) => {
    const id = c.req.param("id");
    const values = { targetFaqId: await formField(c, "targetFaqId"), relationshipType: await formField(c, "relationshipType") };
    const result = await apiResult(api(c).faqs[":id"].related.$post({ param: { id: encodeURIComponent(id) }, json: formBody(values) }));
    if (!result.ok && result.status === 404) return failed(c, id, { ...result, status: 400 }, "related", values);
    return result.ok
      ? doneWith(c, `/ui/faqs/${id}`, `Linked ${quoted(result.data.question)} as ${result.data.relationshipType.replace("_", " ")}.`)
      : failed(c, id, result, "related", values);
  });

  ui.post("/faqs/:id/related/:relId/delete", screen, async (c) => {
    const { id, relId } = c.req.param();
    const label = await formField(c, "label");
    const result = await apiResult(api(c).faqs.relationships[":id"].$delete({ param: { id: encodeURIComponent(relId) } }));
    return result.ok
      ? doneWith(c, `/ui/faqs/${id}`, label ? `Unlinked ${quoted(label)}.` : "Unlinked.")
      : failed(c, id, result, "notice", {});
  });

  ui.post("/faqs/:id/rollback/:version", screen, async (c) => {
    const { id, version } = c.req.param();
    const result = await apiResult(
      api(c).faqs[":id"].rollback[":version"].$post({
        param: { id: encodeURIComponent(id), version: encodeURIComponent(version) },
        json: { changeReason: `rollback to v${version} from the review desk` },
      }),
    );
    return result.ok
      ? doneWith(c, `/ui/faqs/${id}`, `Rolled back to the text of version ${version}, saved as version ${result.data.version}.`)
      : failed(c, id, result, "notice", {});
  });

  ui.post("/faqs/:id/suggestions/:sid/:action{accept|dismiss}", screen, async (c) => {
    const { id, sid } = c.req.param();
    // The screen's own route takes only these two.
    const action = c.req.param("action") === "accept" ? "accept" : "dismiss";
    const label = await formField(c, "label");
    const result = await apiResult(
      api(c).faqs.suggestions[":id"][":action{accept|dismiss}"].$post({
        param: { id: encodeURIComponent(sid), action },
        json: action === "accept" ? { faqId: id } : {},
      }),
    );
    const what = label ? quoted(label) : "the suggested phrasing";
    return result.ok
      ? doneWith(c, `/ui/faqs/${id}`, action === "accept" ? `Added ${what} as a variant.` : `Dismissed ${what}.`)
      : failed(c, id, result, "notice", {});
  });
}
