/**
 * A stored ranking on the producer console (seed 004 §UI 3–4): question cards with score, novelty
 * band and decision, "87% similar to '…' asked at 10:22 · 3 min ago", "Mark used" on picks and
 * "Use anyway" on filtered questions. Rendered from GET …/rankings/:id, so a reload shows the same
 * cards, with what happened since (used, used anyway).
 */
import type { FC } from "hono/jsx";
import type { Ranking } from "./answers";
import { ClockTime } from "./clock-time";
import { Back, type Place } from "./console-back";
import type { Flash } from "./flash";
import { Csrf, minutesAgoText, Notice, percent, type Viewer, shortened } from "./layout";

/** Novelty bands: the colour is never the only cue (each band has its words too). */
export function noveltyBand(novelty: number | null): { cls: string; words: string } {
  if (novelty === null) return { cls: "band-mid", words: "memory paused" };
  if (novelty >= 0.7) return { cls: "band-high", words: "Fresh angle!" };
  if (novelty >= 0.4) return { cls: "band-mid", words: "Some overlap" };
  return { cls: "band-low", words: "Mostly covered" };
}

/** "asked at 10:22 · 3 min ago" (seed 004's warning), counted from now, not from when it was ranked. */
const AskedWhen: FC<{ item: { askedAt: number | null }; now: number }> = ({ item, now }) =>
  item.askedAt === null ? (
    <>in this batch</>
  ) : (
    <>
      asked at <ClockTime at={item.askedAt} /> · {minutesAgoText((now - item.askedAt) / 60_000)}
    </>
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

interface CardProps {
  place: Place;
  viewer: Viewer;
  now: number;
  ended: boolean;
}

export const PickCard: FC<CardProps & { pick: Ranking["picks"][number]; rank: number }> = ({ pick, rank, place, viewer, now, ended }) => {
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
        Novelty: {percent(pick.novelty)} ({band.words}) · confidence {percent(pick.confidence)}
        {pick.votes.length > 0 ? ` · also proposed by ${pick.votes.join(", ")}` : ""}
      </p>
      <blockquote>“{pick.text}”</blockquote>
      {pick.warnings.map((w) => (
        <p class="warning">
          ⚠ {percent(w.similarity)} similar to “{shortened(w.mostSimilarQuestion)}” <AskedWhen item={w} now={now} />
          {w.kind === "close_to_pick" ? " (another pick)" : ""}
          <Evidence text={w.evidence} />
        </p>
      ))}
      {pick.id !== null &&
        (pick.wasUsed ? (
          <p class="done-line">✓ Marked used</p>
        ) : (
          !ended && (
            <form method="post" action={`/ui/shows/${place.showId}/questions/${pick.id}/used`} data-async data-done-label="✓ Marked used">
              <Csrf viewer={viewer} />
              <Back place={place} />
              <button type="submit" class="secondary">
                Mark used
              </button>{" "}
              <span class="small muted" data-async-status aria-live="polite"></span>
            </form>
          )
        ))}
    </article>
  );
};

export const FilteredCard: FC<CardProps & { item: Ranking["filtered"][number] }> = ({ item, place, viewer, now, ended }) => (
  <article class="qcard filtered" data-testid="filtered">
    <div class="head">
      <span>{item.model}</span>
      <span class="badge filtered">filtered</span>
      <span class="score muted small">{item.reason.replaceAll("_", " ")}</span>
    </div>
    <blockquote>“{item.text}”</blockquote>
    <p class="warning">
      ⚠ {percent(item.similarity)} similar to “{shortened(item.mostSimilarQuestion)}” <AskedWhen item={item} now={now} />
      <Evidence text={item.evidence} />
    </p>
    {item.override !== null ? (
      <p class="done-line" data-testid="override">
        ✓ Used anyway by {item.override.by} at <ClockTime at={item.override.at} />: in memory, marked used.
      </p>
    ) : (
      item.mostSimilarQuestionId !== null &&
      !ended && (
        // The manual override of seed 004, for this one question: the host asks it although the show filtered it.
        <form method="post" action={`/ui/shows/${place.showId}/overrides`} class="row">
          <Csrf viewer={viewer} />
          <Back place={place} />
          <input type="hidden" name="text" value={item.text} />
          <input type="hidden" name="model" value={item.model} />
          <input type="hidden" name="againstQuestionId" value={item.mostSimilarQuestionId} />
          <button type="submit" class="secondary" aria-label={`Use anyway: ${shortened(item.text, 80)}`}>
            Use anyway
          </button>
          <span class="small muted">The host asks it: it joins the memory as used, in your key's name.</span>
        </form>
      )
    )}
  </article>
);

export const RankResults: FC<{
  ranking: Ranking | null;
  place: Place;
  viewer: Viewer;
  now: number;
  ended: boolean;
  notice?: Flash | undefined;
}> = ({ ranking, place, viewer, now, ended, notice }) => (
  <section class="results" id="results" aria-labelledby="results-title">
    <h2 id="results-title">Ranked questions</h2>
    {ranking !== null && notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
    {ranking === null ? (
      <p class="muted">Type the candidate questions and rank them: the best ones that do not repeat the show appear here.</p>
    ) : (
      <>
        <p class="muted small" data-testid="ranking-meta">
          Ranked at <ClockTime at={ranking.rankedAt} /> ({minutesAgoText((now - ranking.rankedAt) / 60_000)}) by {ranking.by}:{" "}
          {ranking.candidateCount} candidate{ranking.candidateCount === 1 ? "" : "s"}, {ranking.picks.length} picked,{" "}
          {ranking.filtered.length} filtered. Embedded by {ranking.embedding.model}
          {ranking.embedding.calibrated ? " (calibrated similarity)" : " (raw cosine: no calibration for this model)"}.
        </p>
        {ranking.picks.map((p, i) => (
          <PickCard pick={p} rank={i + 1} place={place} viewer={viewer} now={now} ended={ended} />
        ))}
        {ranking.filtered.map((f) => (
          <FilteredCard item={f} place={place} viewer={viewer} now={now} ended={ended} />
        ))}
        {ranking.notPicked.length > 0 && (
          <details>
            <summary>{ranking.notPicked.length} more passed the filters but did not make the top N</summary>
            <ul>
              {ranking.notPicked.map((n) => (
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
