/**
 * The producer console's pages (seed 004 §UI): the show list, one show's console (optionally with
 * a stored ranking's cards), its live region (status, recent rankings, history: polled every 2 s)
 * and the confirmation before ending the show. Data only through /v1/shows/… as the signed-in user.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ClockTime } from "./clock-time";
import { Back, DEFAULT_MINUTES, HISTORY_CHOICES, type Place, placePath, placeUrl } from "./console-back";
import { CheckForm, checkOf } from "./console-check";
import { RankForm, type RankFormState, rankFormOf } from "./console-rank-form";
import { RankResults } from "./console-results";
import { CONFIG_FIELDS, HistoryPanel, RecentRankings, StatusBadge } from "./console-views";
import type { ShowSummary } from "./answers";
import { api, apiData, apiResult } from "./api";
import { type UiContext, UiFailure, viewerOf } from "./context";
import type { Flash } from "./flash";
import { Csrf, durationText, Field, Layout, minutesAgoText, Notice, percent, type Viewer } from "./layout";

/** How many recent rankings the console lists. */
const RECENT_RANKINGS = 5;

type Values = Record<string, string>;
type Errors = Record<string, string>;

export interface ConsoleState {
  rank?: RankFormState;
  add?: { values: Values; errors: Errors };
  refresh?: { values: Values; errors: Errors };
  config?: { values: Values; errors: Errors };
  notice?: Flash | undefined;
  /** A question to check (the page's `?check=`). */
  check?: string | undefined;
}

export async function liveData(c: UiContext, place: Place) {
  const show = api(c).shows[":showId"];
  const param = { showId: place.showId };
  const [status, history, rankings] = await Promise.all([
    apiData(show.status.$get({ param })),
    apiData(show.history.$get({ param, query: { minutes: String(place.minutes) } })),
    apiData(show.rankings.$get({ param, query: { limit: String(RECENT_RANKINGS) } })),
  ]);
  return { status, history: history.questions, rankings: rankings.rankings };
}

/** A stored ranking for the page; a ranking the show does not have is a 404 page. */
async function rankingOf(c: UiContext, place: Place) {
  if (place.rankingId === null) return null;
  const param = { showId: place.showId, rankingId: place.rankingId };
  const result = await apiResult(api(c).shows[":showId"].rankings[":rankingId"].$get({ param }));
  if (result.ok) return result.data;
  throw new UiFailure(result.status, result.status === 404 ? "No such ranking in this show (a show keeps its newest 100)" : result.message);
}

export const Live = ({
  place,
  live,
  viewer,
  now,
}: {
  place: Place;
  live: Awaited<ReturnType<typeof liveData>>;
  viewer: Viewer;
  now: number;
}) => (
  <>
    <StatusBadge status={live.status} />
    <RecentRankings place={place} rankings={live.rankings} now={now} />
    <HistoryPanel place={place} items={live.history} viewer={viewer} ended={live.status.endedAt !== null} />
  </>
);

/** The confirmation page, knowing where Cancel goes back to. */
function endUrl(place: Place): string {
  const query = new URLSearchParams();
  if (place.rankingId !== null) query.set("ranking", place.rankingId);
  if (place.minutes !== DEFAULT_MINUTES) query.set("minutes", String(place.minutes));
  const q = query.toString();
  return `/ui/shows/${place.showId}/end${q === "" ? "" : `?${q}`}`;
}

export function liveSrc(place: Place): string {
  const query = new URLSearchParams({ minutes: String(place.minutes) });
  if (place.rankingId !== null) query.set("ranking", place.rankingId);
  return `/ui/shows/${place.showId}/live?${query.toString()}`;
}

export async function renderConsole(c: UiContext, place: Place, state: ConsoleState = {}, status: ContentfulStatusCode = 200) {
  const viewer = viewerOf(c);
  const now = c.get("services").clock.now();
  const [live, ranking, check] = await Promise.all([liveData(c, place), rankingOf(c, place), checkOf(c, place, state.check)]);
  const config = live.status.config;
  const ended = live.status.endedAt !== null;
  const rank = state.rank ?? (ranking?.asked ? rankFormOf(ranking.asked) : { values: {}, errors: {} });
  const cfg = state.config ?? { values: Object.fromEntries(CONFIG_FIELDS.map((f) => [f.key, String(config[f.key])])), errors: {} };
  const base = `/ui/shows/${place.showId}`;
  const page = (
    <Layout title={`Show ${place.showId}`} section="shows" viewer={viewer}>
      <div class="spread">
        <h1>Producer console · {place.showId}</h1>
        <form method="get" action={placePath(place)} class="row">
          <label for="history-minutes" class="small">
            History
          </label>
          <select id="history-minutes" name="minutes">
            {HISTORY_CHOICES.map((m) => (
              <option value={String(m)} selected={m === place.minutes}>
                {m < 60 ? `${m} min` : `${m / 60} h`}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
      </div>
      {state.notice && !(state.notice.atResults && ranking !== null) && <Notice kind={state.notice.kind}>{state.notice.text}</Notice>}
      <div class="grid wide-left console">
        <div>
          <RankForm place={place} viewer={viewer} state={rank} ended={ended} />
          <RankResults
            ranking={ranking}
            place={place}
            viewer={viewer}
            now={now}
            ended={ended}
            notice={state.notice?.atResults ? state.notice : undefined}
          />
        </div>
        <div>
          <div data-live-src={liveSrc(place)} aria-live="polite">
            <Live place={place} live={live} viewer={viewer} now={now} />
          </div>
          <section class="card" aria-labelledby="controls-title">
            <h2 id="controls-title">Memory controls</h2>
            <CheckForm place={place} check={check} />
            <form method="post" action={`${base}/questions`}>
              <Csrf viewer={viewer} />
              <Back place={place} />
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
              <Back place={place} />
              <Field
                id="refresh-topic"
                name="topic"
                label="Refresh topic"
                hint="Takes every question on this topic out of memory (its words in any form: consciousness, conscious, consciously), so the host can revisit it."
                value={state.refresh?.values.topic}
                error={state.refresh?.errors.topic}
              />
              <p>
                <button type="submit" class="secondary" disabled={ended}>
                  Refresh topic
                </button>
              </p>
            </form>
            <form method="post" action={`${base}/${live.status.enabled ? "pause" : "resume"}`} class="row">
              <Csrf viewer={viewer} />
              <Back place={place} />
              <button type="submit" class={live.status.enabled ? "secondary" : undefined} disabled={ended}>
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
              <Back place={place} />
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
                <button type="submit" class="secondary" disabled={ended}>
                  Save configuration
                </button>
              </p>
            </form>
          </section>
          <section class="card" aria-labelledby="end-title">
            <h2 id="end-title">End the show</h2>
            {live.status.endedAt !== null ? (
              <p data-testid="ended-line">
                Ended at <ClockTime at={live.status.endedAt} />: nothing more is ranked into memory or recorded; the history and the
                rankings stay readable.
              </p>
            ) : (
              <>
                <p class="muted small">When the show is over. You confirm on the next page.</p>
                <a class="button danger" href={endUrl(place)}>
                  End show…
                </a>
              </>
            )}
          </section>
        </div>
      </div>
    </Layout>
  );
  return c.html(page, status);
}

/** The confirmation before POST …/end: what ending does, what the show holds, and a way back. */
export async function renderEndConfirm(c: UiContext, place: Place) {
  const viewer = viewerOf(c);
  const status = await apiData(api(c).shows[":showId"].status.$get({ param: { showId: place.showId } }));
  const back = placeUrl(place);
  return c.html(
    <Layout title={`End show ${place.showId}?`} section="shows" viewer={viewer}>
      <div class="card confirm">
        <h1>End show {place.showId}?</h1>
        {status.endedAt !== null ? (
          <>
            <Notice kind="ok">This show has already ended.</Notice>
            <p>
              <a href={back}>Back to the console</a>
            </p>
          </>
        ) : (
          <>
            <p>
              Show duration {durationText(status.showDurationMinutes)}: {status.questionCount} questions asked, {status.usedCount} used by
              the host, average novelty {percent(status.averageNovelty)}.
            </p>
            <p>
              Ending clears the memory window: after it, ranking into memory and adding questions are refused, and this show id cannot be
              started again. The history and the rankings stay readable. This cannot be undone.
            </p>
            <form method="post" action={`/ui/shows/${place.showId}/end`} class="row">
              <Csrf viewer={viewer} />
              <button type="submit" class="danger">
                End the show
              </button>
              <a class="button secondary" href={back}>
                Cancel
              </a>
            </form>
          </>
        )}
      </div>
    </Layout>,
  );
}

export const ShowList = ({
  shows,
  viewer,
  error,
  value,
}: {
  shows: ShowSummary[];
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
