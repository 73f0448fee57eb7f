/**
 * A long memory shortened to fit the context budget instead of dropped: the sentence that holds
 * the most of the query's content terms, grown with its neighbours while it fits, "…" where text
 * was cut. A sentence longer than the room left is cut around its first matching term.
 */
import { estimateTokens } from "../../core/text/tokens";

export const ELLIPSIS = "…";

const SENTENCE_END = /(?<=[.!?。！？；;])\s*/u;

export function excerpt(text: string, terms: readonly string[], maxTokens: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (estimateTokens(flat) <= maxTokens) return flat;
  const sentences = flat.split(SENTENCE_END).filter((s) => s.length > 0);
  const wanted = terms.map((t) => t.toLowerCase());
  const hits = sentences.map((s) => {
    const lower = s.toLowerCase();
    return wanted.filter((t) => lower.includes(t)).length;
  });
  const best = hits.indexOf(Math.max(...hits));
  let lo = best;
  let hi = best;
  const render = () =>
    `${lo > 0 ? `${ELLIPSIS} ` : ""}${sentences.slice(lo, hi + 1).join(" ")}${hi < sentences.length - 1 ? ` ${ELLIPSIS}` : ""}`;
  if (estimateTokens(render()) > maxTokens) return cutAround(sentences[best]!, wanted, maxTokens);
  // Grow forward first (what follows a match usually explains it), then back.
  for (let grew = true; grew;) {
    grew = false;
    for (const step of [() => hi < sentences.length - 1 && ++hi, () => lo > 0 && --lo]) {
      const [oldLo, oldHi] = [lo, hi];
      if (!step()) continue;
      if (estimateTokens(render()) <= maxTokens) grew = true;
      else [lo, hi] = [oldLo, oldHi];
    }
  }
  return render();
}

/** A window of one long sentence from a little before its first matching term, as long as fits. */
function cutAround(sentence: string, terms: readonly string[], maxTokens: number): string {
  const lower = sentence.toLowerCase();
  const found = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  const start = found.length ? Math.max(0, Math.min(...found) - 40) : 0;
  const render = (end: number) =>
    `${start > 0 ? `${ELLIPSIS} ` : ""}${sentence.slice(start, end).trim()}${end < sentence.length ? ` ${ELLIPSIS}` : ""}`;
  // The longest window that fits: the cost only grows with the end.
  let [fits, over] = [start, sentence.length + 1];
  while (over - fits > 1) {
    const mid = (fits + over) >> 1;
    if (estimateTokens(render(mid)) <= maxTokens) fits = mid;
    else over = mid;
  }
  return fits > start ? render(fits) : "";
}
