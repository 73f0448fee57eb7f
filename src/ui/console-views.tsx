/** Producer console pieces (seed 004 §UI): status badge, history panel, question cards. */
import type { FC } from "hono/jsx";
import type { NoveltyConfig } from "../ranking/novelty-config";
import type { HistoryItem, ShowStatus } from "../shows/types";
import { Csrf, durationText, minutesAgoText, percent, type Viewer } from "./layout";

export type StatusView = ShowStatus & { showId: string };

export interface RankPick {
  id: string | null;
  text: string;
  model: string;
  score: number;
  novelty: number | null;
  votes: string[];
  boosted: boolean;
  warnings: { kind: string; mostSimilarQuestion: string; similarity: number; minutesAgo: number | null; evidence: string | null }[];
}
export interface RankFiltered {
  text: string;
  model: string;
  reason: string;
  mostSimilarQuestion: string;
  similarity: number;
  minutesAgo: number | null;
  evidence: string | null;
}
export interface RankView {
  picks: RankPick[];
  filtered: RankFiltered[];
  notPicked: { text: string; score: number }[];
  embedding: { model: string; calibrated: boolean };
}

/** Novelty bands: the colour is never the only cue (each band has its words too). */
export function noveltyBand(novelty: number | null): { cls: string; words: string } {
  if (novelty === null) return { cls: "band-mid", words: "memory paused" };
  if (novelty >= 0.7) return { cls: "band-high", words: "Fresh angle!" };
  if (novelty >= 0.4) return { cls: "band-mid", words: "Some overlap" };
  return { cls: "band-low", words: "Mostly covered" };
}

const quote = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const ago = (minutes: number | null) => (minutes === null ? "in this batch" : `asked ${minutesAgoText(minutes)}`);

export const StatusBadge: FC<{ status: StatusView }> = ({ status }) => {
  const state = status.endedAt !== null ? "ended" : status.enabled ? "active" : "paused";
  const label = state === "ended" ? "Ended" : state === "active" ? "Active" : "Paused";
  return (
    <section class="card status-badge" aria-labelledby="status-title">
      <div class="spread">
        <h2 id="status-title">Context memory</h2>
        <span class={`badge ${state}`} data-testid="memory-state">
          {label}
        </span>
      </div>
      <dl>
        <dt>Questions in memory</dt>
        <dd data-testid="questions-in-memory">{status.questionsInMemory}</dd>
        <dt>Show duration</dt>
        <dd>{durationText(status.showDurationMinutes)}</dd>
        <dt>Avg novelty</dt>
        <dd>{percent(status.averageNovelty)}</dd>
        <dt>Used by the host</dt>
        <dd>{status.usedCount}</dd>
      </dl>
    </section>
  );
};

export const HistoryPanel: FC<{ showId: string; minutes: number; items: HistoryItem[]; viewer: Viewer; ended: boolean }> = ({
  showId,
  minutes,
  items,
  viewer,
  ended,
}) => (
  <section class="card" aria-labelledby="history-title">
    <h2 id="history-title">Recent questions (last {minutes >= 60 ? `${Math.round(minutes / 60)} h` : `${minutes} min`})</h2>
    {items.length === 0 ? (
      <p class="muted">No questions yet in this period.</p>
    ) : (
      <ul class="history" data-testid="history">
        {items.map((q) => (
          <li class={q.forgottenAt !== null ? "forgotten" : undefined}>
            <span class="when">{minutesAgoText(q.minutesAgo)}</span>
            <span class="text">
              “{q.text}”
              <span class="muted small">
                {" "}
                · {q.model ?? "added by hand"}
                {q.novelty !== null ? ` · novelty ${percent(q.novelty)} when picked` : ""}
                {q.forgottenAt !== null ? " · refreshed out of memory" : ""}
              </span>
            </span>
            {q.wasUsed ? (
              <span class="used yes" title="Used by the host">
                ✓ <span class="small">used</span>
              </span>
            ) : ended ? (
              <span class="used no">✗</span>
            ) : (
              <form method="post" action={`/ui/shows/${showId}/questions/${q.id}/used`} data-async data-done-label="✓ used">
                <Csrf viewer={viewer} />
                <span class="used no" aria-hidden="true">
                  ✗{" "}
                </span>
                <button type="submit" class="secondary" id={`used-${q.id}`} aria-label={`Mark used: ${quote(q.text, 80)}`}>
                  Mark used
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
    )}
  </section>
);

export const PickCard: FC<{ pick: RankPick; rank: number; showId: string; viewer: Viewer }> = ({ pick, rank, showId, viewer }) => {
  const band = noveltyBand(pick.novelty);
  const penalized = pick.warnings.some((w) => w.kind === "penalized");
  const decision = penalized ? "penalised" : pick.boosted ? "boosted" : "kept";
  return (
    <article class={`qcard ${band.cls}`} data-testid="pick">
      <div class="head">
        <span>#{rank}</span>
        <span>{pick.model}</span>
        <span class={`badge ${decision}`}>{decision}</span>
        <span class="score">Score: {percent(pick.score)}</span>
      </div>
      <p class="novelty">
        Novelty: {percent(pick.novelty)} ({band.words}){pick.votes.length > 0 ? ` · also proposed by ${pick.votes.join(", ")}` : ""}
      </p>
      <blockquote>“{pick.text}”</blockquote>
      {pick.warnings.map((w) => (
        <p class="warning">
          ⚠ {percent(w.similarity)} similar to “{quote(w.mostSimilarQuestion)}” {ago(w.minutesAgo)}
          {w.kind === "close_to_pick" ? " (another pick)" : ""}
          <Evidence text={w.evidence} />
        </p>
      ))}
      {pick.id !== null && (
        <form method="post" action={`/ui/shows/${showId}/questions/${pick.id}/used`} data-async data-done-label="✓ Marked used">
          <Csrf viewer={viewer} />
          <button type="submit" class="secondary">
            Mark used
          </button>{" "}
          <span class="small muted" data-async-status aria-live="polite"></span>
        </form>
      )}
    </article>
  );
};

export const FilteredCard: FC<{ item: RankFiltered }> = ({ item }) => (
  <article class="qcard band-low filtered" data-testid="filtered">
    <div class="head">
      <span>{item.model}</span>
      <span class="badge filtered">filtered</span>
      <span class="score muted small">{item.reason.replaceAll("_", " ")}</span>
    </div>
    <blockquote>“{item.text}”</blockquote>
    <p class="warning">
      ⚠ {percent(item.similarity)} similar to “{quote(item.mostSimilarQuestion)}” {ago(item.minutesAgo)}
      <Evidence text={item.evidence} />
    </p>
  </article>
);

/** Why the same-question decision took two questions for one, or not ("differs: enable ≠ disable"). */
const Evidence: FC<{ text: string | null }> = ({ text }) =>
  text ? (
    <>
      <br />
      <span class="small muted" data-testid="evidence">
        Decision: {text}
      </span>
    </>
  ) : null;

export const RankResults: FC<{ result: RankView | null; showId: string; viewer: Viewer }> = ({ result, showId, viewer }) => (
  <section class="results" aria-labelledby="results-title" aria-live="polite">
    <h2 id="results-title">Ranked questions</h2>
    {result === null ? (
      <p class="muted">Paste the candidate questions and rank them: the best ones that do not repeat the show appear here.</p>
    ) : (
      <>
        <p class="muted small">
          Embedded by {result.embedding.model}
          {result.embedding.calibrated ? " (calibrated similarity)" : " (raw cosine: no calibration for this model)"}.
        </p>
        {result.picks.map((p, i) => (
          <PickCard pick={p} rank={i + 1} showId={showId} viewer={viewer} />
        ))}
        {result.filtered.map((f) => (
          <FilteredCard item={f} />
        ))}
        {result.notPicked.length > 0 && (
          <details>
            <summary>{result.notPicked.length} more passed the filters but did not make the top N</summary>
            <ul>
              {result.notPicked.map((n) => (
                <li>
                  {n.text} <span class="muted small">score {percent(n.score)}</span>
                </li>
              ))}
            </ul>
          </details>
        )}
      </>
    )}
  </section>
);

export const CONFIG_FIELDS: { key: Exclude<keyof NoveltyConfig, "enabled">; label: string; step: string }[] = [
  { key: "similarityThreshold", label: "Block above (similarity)", step: "0.01" },
  { key: "penaltySimilarityThreshold", label: "Penalise from (similarity)", step: "0.01" },
  { key: "noveltyBoostThreshold", label: "Boost below (similarity)", step: "0.01" },
  { key: "decayTimeConstantMinutes", label: "Decay time constant (min)", step: "any" },
  { key: "maxCacheSize", label: "Questions kept in memory", step: "1" },
  { key: "retentionDays", label: "Retention (days)", step: "1" },
];
