/** Review desk pieces without data access: the word diff between two versions, the hits-per-day chart, counted words. */
import { diffWords } from "diff";
import type { FC } from "hono/jsx";
import type { DailyHits } from "../features/faqs/types";

export const WordDiff: FC<{ before: string; after: string; label: string }> = ({ before, after, label }) => (
  <div class="diff" aria-label={label}>
    {diffWords(before, after).map((part) =>
      part.added ? <ins>{part.value}</ins> : part.removed ? <del>{part.value}</del> : <span>{part.value}</span>,
    )}
  </div>
);

/** "1 session", "2 sessions": a count with its noun, singular for exactly one. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const CHART_WIDTH = 300;
const CHART_HEIGHT = 90;
const AXIS = 14;

/** Bars of hits per UTC day; each bar has a <title>, and the figure a text summary (not only a picture). */
export const HitChart: FC<{ days: DailyHits[]; of?: string; testId?: string }> = ({ days, of = "", testId = "hit-chart" }) => {
  const max = Math.max(1, ...days.map((d) => d.hits));
  const total = days.reduce((sum, d) => sum + d.hits, 0);
  const slot = CHART_WIDTH / days.length;
  const plot = CHART_HEIGHT - AXIS;
  const summary = `${plural(total, "hit")}${of} in the last ${days.length} days, at most ${total === 0 ? 0 : max} a day`;
  return (
    <figure>
      <svg class="chart" viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} role="img" aria-label={summary} data-testid={testId}>
        {days.map((d, i) => {
          const h = d.hits === 0 ? 0 : Math.max(2, (d.hits / max) * (plot - 4));
          return (
            <rect
              class="bar"
              x={(i * slot + slot * 0.15).toFixed(1)}
              y={(plot - h).toFixed(1)}
              width={(slot * 0.7).toFixed(1)}
              height={h.toFixed(1)}
            >
              <title>{`${d.day}: ${plural(d.hits, "hit")}`}</title>
            </rect>
          );
        })}
        <rect class="baseline" x="0" y={plot} width={CHART_WIDTH} height="1" />
        <text class="axis" x="0" y={CHART_HEIGHT - 2}>
          {days[0]?.day ?? ""}
        </text>
        <text class="axis" x={CHART_WIDTH} y={CHART_HEIGHT - 2} text-anchor="end">
          {days.at(-1)?.day ?? ""}
        </text>
      </svg>
      <figcaption class="small muted">{summary}</figcaption>
    </figure>
  );
};

export const MATCH_WORDS: Record<string, string> = {
  canonical_bm25: "question or answer words",
  variant_bm25: "words of a variant",
  canonical_vector: "meaning of the question",
  variant_vector: "meaning of a variant",
};
