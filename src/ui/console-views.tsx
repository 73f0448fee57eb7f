/** Producer console pieces (seed 004 §UI 1–2): status badge, recent rankings, history panel. */
import type { FC } from "hono/jsx";
import type { NoveltyConfig } from "../core/novelty/novelty-config";
import type { HistoryItem, RankingSummary, ShowStatus } from "./answers";
import { ClockTime } from "./clock-time";
import { Back, type Place, placeUrl } from "./console-back";
import { Csrf, durationText, minutesAgoText, percent, type Viewer, shortened } from "./layout";

export const StatusBadge: FC<{ status: ShowStatus }> = ({ status }) => {
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
        {status.endedAt !== null && (
          <>
            <dt>Ended at</dt>
            <dd>
              <ClockTime at={status.endedAt} />
            </dd>
          </>
        )}
      </dl>
    </section>
  );
};

/**
 * What was ranked lately, newest first: the producer's AI ranks through the API, and its batches
 * show up here within the live region's 2 s poll; each opens as cards at its own URL.
 */
export const RecentRankings: FC<{ place: Place; rankings: RankingSummary[]; now: number }> = ({ place, rankings, now }) => (
  <section class="card" aria-labelledby="rankings-title">
    <h2 id="rankings-title">Ranked by the API</h2>
    {rankings.length === 0 ? (
      <p class="muted">No rankings yet: what the producer's AI (or this console) ranks appears here within seconds.</p>
    ) : (
      <ul class="rankings" data-testid="recent-rankings">
        {rankings.map((r) => (
          <li aria-current={r.id === place.rankingId ? "true" : undefined}>
            <div class="spread">
              <a href={placeUrl({ ...place, rankingId: r.id })}>
                <ClockTime at={r.rankedAt} /> · {minutesAgoText((now - r.rankedAt) / 60_000)}
              </a>
              <span class="muted small">
                by {r.by} · {r.candidateCount} candidate{r.candidateCount === 1 ? "" : "s"} → {r.picks.length} picked
                {r.filteredCount > 0 ? `, ${r.filteredCount} filtered` : ""}
                {r.id === place.rankingId ? " · shown" : ""}
              </span>
            </div>
            {r.picks.length > 0 && (
              <ol class="small">
                {r.picks.map((p) => (
                  <li>
                    {shortened(p.text, 90)}{" "}
                    <span class="muted">
                      · {p.model} · {percent(p.score)}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ul>
    )}
  </section>
);

export const HistoryPanel: FC<{ place: Place; items: HistoryItem[]; viewer: Viewer; ended: boolean }> = ({
  place,
  items,
  viewer,
  ended,
}) => (
  <section class="card" aria-labelledby="history-title">
    <h2 id="history-title">
      Recent questions (last {place.minutes >= 60 ? `${Math.round(place.minutes / 60)} h` : `${place.minutes} min`})
    </h2>
    {items.length === 0 ? (
      <p class="muted">No questions yet in this period.</p>
    ) : (
      <ul class="history" data-testid="history">
        {items.map((q) => (
          <li class={q.forgottenAt !== null ? "forgotten" : undefined}>
            <span class="when">
              {minutesAgoText(q.minutesAgo)}{" "}
              <span class="small">
                (<ClockTime at={q.askedAt} />)
              </span>
            </span>
            <span class="text">
              “{q.text}”
              <span class="muted small">
                {" "}
                · {q.model ?? "added by hand"}
                {q.novelty !== null ? ` · novelty ${percent(q.novelty)} when picked` : ""}
                {q.source === "override" ? " · used anyway (override)" : ""}
                {q.forgottenAt !== null ? " · refreshed out of memory" : ""}
              </span>
            </span>
            {q.wasUsed ? (
              <span class="used yes" title="Used by the host">
                ✓ <span class="small">used</span>
              </span>
            ) : ended ? (
              <span class="used no small">not used</span>
            ) : (
              <form method="post" action={`/ui/shows/${place.showId}/questions/${q.id}/used`} data-async data-done-label="✓ used">
                <Csrf viewer={viewer} />
                <Back place={place} />
                <button type="submit" class="secondary" id={`used-${q.id}`} aria-label={`Mark used: ${shortened(q.text, 80)}`}>
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

export const CONFIG_FIELDS: { key: Exclude<keyof NoveltyConfig, "enabled">; label: string; step: string }[] = [
  { key: "similarityThreshold", label: "Block above (similarity)", step: "0.01" },
  { key: "penaltySimilarityThreshold", label: "Penalise from (similarity)", step: "0.01" },
  { key: "noveltyBoostThreshold", label: "Boost below (similarity)", step: "0.01" },
  { key: "decayTimeConstantMinutes", label: "Decay time constant (min)", step: "any" },
  { key: "maxCacheSize", label: "Questions kept in memory", step: "1" },
  { key: "retentionDays", label: "Retention (days)", step: "1" },
];
