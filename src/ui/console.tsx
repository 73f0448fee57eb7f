/**
 * The producer console (seed 004 §UI): pick or create a show, watch its memory, rank candidate
 * questions, mark them used, refresh a topic, pause the memory, tune the configuration. All
 * through /v1/shows/… as the signed-in user; the live region polls a fragment every 2 s.
 */
import type { Hono } from "hono";
import type { ArchivedShow } from "../shows/archive";
import type { HistoryItem } from "../shows/types";
import { api, apiData, done, screen, formField, type UiContext, type UiEnv, UiFailure, viewerOf } from "./context";
import { CONFIG_FIELDS, HistoryPanel, RankResults, type RankView, StatusBadge, type StatusView } from "./console-views";
import { Csrf, Field, Layout, minutesAgoText, Notice, percent, type Viewer } from "./layout";

const HISTORY_CHOICES = [30, 60, 180, 1440] as const;
const SHOW_ID = /^[A-Za-z0-9_-]{1,64}$/;

type Values = Record<string, string>;
type Errors = Record<string, string>;
interface FormState {
  values: Values;
  errors: Errors;
}
interface ConsoleState {
  rank?: FormState & { result: RankView | null };
  add?: FormState;
  refresh?: FormState;
  config?: FormState;
  notice?: { kind: "ok" | "error"; text: string };
}

/** A form number: a number when it parses, else the text as typed, so the API's schema names the problem. */
function numberOrText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  return Number.isFinite(Number(t)) ? Number(t) : t;
}

/** One candidate per line: "model | question" or just the question (then the default model). */
export function parseCandidates(text: string, defaultModel: string) {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const bar = line.indexOf("|");
      if (bar > 0 && bar <= 64) return { model: line.slice(0, bar).trim(), text: line.slice(bar + 1).trim() };
      return { model: defaultModel.trim(), text: line };
    });
}

/** API issue paths → form fields ("candidates.2.text" → the textarea, as "line 3: …"). */
function rankErrors(details: { path: string; message: string }[]): Errors {
  const errors: Errors = {};
  for (const d of details) {
    const m = /^candidates\.(\d+)\.(text|model)$/.exec(d.path);
    if (m) errors.candidates ??= `Line ${Number(m[1]) + 1}: ${m[2] === "model" ? "model " : ""}${d.message}`;
    else if (d.path.startsWith("candidates")) errors.candidates ??= d.message;
    else errors[d.path === "(root)" ? "form" : d.path] ??= d.message;
  }
  return errors;
}

async function liveData(c: UiContext, showId: string, minutes: number) {
  const [status, history] = await Promise.all([
    apiData<StatusView>(c, `/v1/shows/${showId}/status`),
    apiData<{ questions: HistoryItem[] }>(c, `/v1/shows/${showId}/history?minutes=${minutes}`),
  ]);
  return { status, history: history.questions };
}

const Live = ({
  showId,
  minutes,
  status,
  history,
  viewer,
}: {
  showId: string;
  minutes: number;
  status: StatusView;
  history: HistoryItem[];
  viewer: Viewer;
}) => (
  <>
    <StatusBadge status={status} />
    <HistoryPanel showId={showId} minutes={minutes} items={history} viewer={viewer} ended={status.endedAt !== null} />
  </>
);

function historyMinutes(c: UiContext): number {
  const m = Number(c.req.query("minutes") ?? 30);
  return (HISTORY_CHOICES as readonly number[]).includes(m) ? m : 30;
}

async function renderConsole(c: UiContext, showId: string, state: ConsoleState = {}, status = 200) {
  const viewer = viewerOf(c);
  const minutes = historyMinutes(c);
  const live = await liveData(c, showId, minutes);
  const config = live.status.config;
  const ended = live.status.endedAt !== null;
  const rank = state.rank ?? { values: {}, errors: {}, result: null };
  const cfg = state.config ?? { values: Object.fromEntries(CONFIG_FIELDS.map((f) => [f.key, String(config[f.key])])), errors: {} };
  const base = `/ui/shows/${showId}`;
  const page = (
    <Layout title={`Show ${showId}`} section="shows" viewer={viewer}>
      <div class="spread">
        <h1>Producer console · {showId}</h1>
        <form method="get" action={base} class="row">
          <label for="history-minutes" class="small">
            History
          </label>
          <select id="history-minutes" name="minutes">
            {HISTORY_CHOICES.map((m) => (
              <option value={String(m)} selected={m === minutes}>
                {m < 60 ? `${m} min` : `${m / 60} h`}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
      </div>
      {state.notice && <Notice kind={state.notice.kind}>{state.notice.text}</Notice>}
      <div class="grid wide-left">
        <div>
          <section class="card" aria-labelledby="rank-title">
            <h2 id="rank-title">Rank candidate questions</h2>
            {rank.errors.form && <Notice kind="error">{rank.errors.form}</Notice>}
            <form method="post" action={`${base}/rank`}>
              <Csrf viewer={viewer} />
              <Field
                id="candidates"
                name="candidates"
                label="Candidates, one per line"
                hint="Optionally prefix the model: “claude | How would you test…”. Lines without a prefix use the default model."
                multiline
                value={rank.values.candidates}
                error={rank.errors.candidates}
                attrs={{
                  rows: 6,
                  required: true,
                  placeholder:
                    "gpt-4o | How would you test whether an AI system is conscious?\nclaude | Can we prove AI systems are conscious?",
                }}
              />
              <div class="grid">
                <Field id="model" name="model" label="Default model" value={rank.values.model ?? "gpt-4o"} error={rank.errors.model} />
                <Field
                  id="topN"
                  name="topN"
                  label="Top N"
                  type="number"
                  value={rank.values.topN ?? "5"}
                  error={rank.errors.topN}
                  attrs={{ min: 1, max: 50 }}
                />
              </div>
              <p>
                <button type="submit" disabled={ended}>
                  Rank
                </button>
              </p>
            </form>
          </section>
          <RankResults result={rank.result} showId={showId} viewer={viewer} />
        </div>
        <div>
          <div data-live-src={`${base}/live?minutes=${minutes}`} aria-live="polite">
            <Live showId={showId} minutes={minutes} status={live.status} history={live.history} viewer={viewer} />
          </div>
          <section class="card" aria-labelledby="controls-title">
            <h2 id="controls-title">Memory controls</h2>
            <form method="post" action={`${base}/questions`}>
              <Csrf viewer={viewer} />
              <Field
                id="add-text"
                name="text"
                label="Add a question the host asked"
                value={state.add?.values.text}
                error={state.add?.errors.text}
              />
              <p>
                <button type="submit" class="secondary" disabled={ended}>
                  Add to memory
                </button>
              </p>
            </form>
            <form method="post" action={`${base}/refresh`}>
              <Csrf viewer={viewer} />
              <Field
                id="refresh-topic"
                name="topic"
                label="Refresh topic"
                hint="Takes the questions about this topic out of memory, so the host can revisit it."
                value={state.refresh?.values.topic}
                error={state.refresh?.errors.topic}
              />
              <p>
                <button type="submit" class="secondary">
                  Refresh topic
                </button>
              </p>
            </form>
            <form method="post" action={`${base}/${live.status.enabled ? "pause" : "resume"}`} class="row">
              <Csrf viewer={viewer} />
              <button type="submit" class={live.status.enabled ? "secondary" : undefined}>
                {live.status.enabled ? "Pause memory" : "Resume memory"}
              </button>
              <span class="small muted">
                {live.status.enabled ? "Manual override: rank without the show's memory." : "Paused: nothing is filtered or recorded."}
              </span>
            </form>
          </section>
          <section class="card" aria-labelledby="config-title">
            <h2 id="config-title">Configuration</h2>
            {cfg.errors.form && <Notice kind="error">{cfg.errors.form}</Notice>}
            <form method="post" action={`${base}/config`}>
              <Csrf viewer={viewer} />
              <div class="grid">
                {CONFIG_FIELDS.map((f) => (
                  <Field
                    id={`cfg-${f.key}`}
                    name={f.key}
                    label={f.label}
                    type="number"
                    value={cfg.values[f.key]}
                    error={cfg.errors[f.key]}
                    attrs={{ step: f.step }}
                  />
                ))}
              </div>
              <p>
                <button type="submit" class="secondary">
                  Save configuration
                </button>
              </p>
            </form>
          </section>
        </div>
      </div>
    </Layout>
  );
  return c.html(page, status as 200);
}

const ShowList = ({
  shows,
  viewer,
  error,
  value,
}: {
  shows: ArchivedShow[];
  viewer: Viewer;
  error?: string | undefined;
  value?: string | undefined;
}) => (
  <Layout title="Shows" section="shows" viewer={viewer}>
    <h1>Producer console</h1>
    <div class="grid wide-left">
      <section class="card" aria-labelledby="shows-title">
        <h2 id="shows-title">Shows</h2>
        {shows.length === 0 ? (
          <p class="muted">No shows yet: create one.</p>
        ) : (
          <ul class="list-plain">
            {shows.map((s) => (
              <li class="spread">
                <a href={`/ui/shows/${s.showId}`}>{s.showId}</a>
                <span class="muted small">
                  {s.endedAt !== null ? "ended · " : ""}
                  {s.questionCount} questions · {s.usedCount} used · avg novelty {percent(s.averageNovelty)} · active{" "}
                  {minutesAgoText((Date.now() - s.lastActivityAt) / 60_000)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="card" aria-labelledby="open-title">
        <h2 id="open-title">Open or create a show</h2>
        <form method="post" action="/ui/shows">
          <Csrf viewer={viewer} />
          <Field
            id="show-id"
            name="showId"
            label="Show id"
            hint="1–64 characters: letters, digits, _ or -"
            value={value}
            error={error}
            attrs={{ required: true }}
          />
          <p>
            <button type="submit">Open console</button>
          </p>
        </form>
      </section>
    </div>
  </Layout>
);

export function consoleRoutes(ui: Hono<UiEnv>) {
  ui.get("/shows", screen, async (c) => {
    const { shows } = await apiData<{ shows: ArchivedShow[] }>(c, "/v1/shows");
    return c.html(<ShowList shows={shows} viewer={viewerOf(c)} />);
  });

  ui.post("/shows", screen, async (c) => {
    const showId = (await formField(c, "showId")).trim();
    if (SHOW_ID.test(showId)) return c.redirect(`/ui/shows/${showId}`, 303);
    // The API's own check names the problem (same schema as every /v1/shows/:showId route).
    const probe = await api(c, "GET", `/v1/shows/${encodeURIComponent(showId || " ")}/status`);
    const message = probe.ok ? "Not a valid show id" : (probe.details[0]?.message ?? probe.message);
    const { shows } = await apiData<{ shows: ArchivedShow[] }>(c, "/v1/shows");
    return c.html(<ShowList shows={shows} viewer={viewerOf(c)} error={message} value={showId} />, 400);
  });

  // Everything under one show validates its id first (a bad one is a 404 page, never a 500).
  ui.use("/shows/:showId/*", async (c, next) => {
    if (!SHOW_ID.test(c.req.param("showId") ?? "")) throw new UiFailure(404, "No such show: a show id is 1–64 letters, digits, _ or -");
    await next();
  });
  ui.get("/shows/:showId", screen, async (c) => {
    if (!SHOW_ID.test(c.req.param("showId"))) throw new UiFailure(404, "No such show: a show id is 1–64 letters, digits, _ or -");
    return renderConsole(c, c.req.param("showId"));
  });

  ui.get("/shows/:showId/live", screen, async (c) => {
    const showId = c.req.param("showId");
    const minutes = historyMinutes(c);
    const live = await liveData(c, showId, minutes);
    return c.html(<Live showId={showId} minutes={minutes} status={live.status} history={live.history} viewer={viewerOf(c)} />);
  });

  ui.post("/shows/:showId/rank", screen, async (c) => {
    const showId = c.req.param("showId");
    const values = { candidates: await formField(c, "candidates"), model: await formField(c, "model"), topN: await formField(c, "topN") };
    const topN = numberOrText(values.topN);
    const body = { candidates: parseCandidates(values.candidates, values.model), ...(topN === undefined ? {} : { topN }) };
    const result = await api<RankView>(c, "POST", `/v1/shows/${showId}/rank`, body);
    if (result.ok) return renderConsole(c, showId, { rank: { values, errors: {}, result: result.data } });
    const errors = result.details.length > 0 ? rankErrors(result.details) : { form: result.message };
    return renderConsole(c, showId, { rank: { values, errors, result: null } }, result.status);
  });

  ui.post("/shows/:showId/questions", screen, async (c) => {
    const showId = c.req.param("showId");
    const text = await formField(c, "text");
    const result = await api(c, "POST", `/v1/shows/${showId}/questions`, { questions: [{ text }] });
    if (result.ok) return done(c, `/ui/shows/${showId}`);
    const error = result.details[0]?.message ?? result.message;
    return renderConsole(c, showId, { add: { values: { text }, errors: { text: error } } }, result.status);
  });

  ui.post("/shows/:showId/questions/:id/used", screen, async (c) => {
    const { showId, id } = c.req.param();
    const result = await api(c, "POST", `/v1/shows/${showId}/questions/${encodeURIComponent(id)}/used`);
    if (result.ok) return done(c, `/ui/shows/${showId}`);
    return c.text(result.message, result.status as 404);
  });

  ui.post("/shows/:showId/refresh", screen, async (c) => {
    const showId = c.req.param("showId");
    const topic = await formField(c, "topic");
    const result = await api<{ count: number }>(c, "POST", `/v1/shows/${showId}/refresh`, { topic });
    if (result.ok) {
      const text = `${result.data.count} question${result.data.count === 1 ? "" : "s"} about “${topic.trim()}” taken out of memory.`;
      return renderConsole(c, showId, { notice: { kind: "ok", text } });
    }
    return renderConsole(
      c,
      showId,
      { refresh: { values: { topic }, errors: { topic: result.details[0]?.message ?? result.message } } },
      result.status,
    );
  });

  for (const [action, enabled] of [
    ["pause", false],
    ["resume", true],
  ] as const) {
    ui.post(`/shows/:showId/${action}`, screen, async (c) => {
      const showId = c.req.param("showId");
      const result = await api(c, "PUT", `/v1/shows/${showId}/config`, { enabled });
      if (!result.ok) return renderConsole(c, showId, { notice: { kind: "error", text: result.message } }, result.status);
      return done(c, `/ui/shows/${showId}`);
    });
  }

  ui.post("/shows/:showId/config", screen, async (c) => {
    const showId = c.req.param("showId");
    const values: Values = {};
    const body: Record<string, number | string> = {};
    for (const f of CONFIG_FIELDS) {
      values[f.key] = await formField(c, f.key);
      const v = numberOrText(values[f.key]!);
      if (v !== undefined) body[f.key] = v;
    }
    const result = await api(c, "PUT", `/v1/shows/${showId}/config`, body);
    if (result.ok) return renderConsole(c, showId, { notice: { kind: "ok", text: "Configuration saved." } });
    const errors: Errors = {};
    for (const d of result.details) errors[d.path === "(root)" ? "form" : d.path] ??= d.message;
    if (Object.keys(errors).length === 0) errors.form = result.message;
    return renderConsole(c, showId, { config: { values, errors } }, result.status);
  });
}
