/**
 * The review desk's own rules (staging queue and review, evidence, two-step confirmations, usage),
 * appended to the shared stylesheet (styles.ts) in one file: CSP style-src 'self', no inline style.
 */
export const DESK_CSS = String.raw`
.tabs { display: flex; flex-wrap: wrap; gap: 6px; margin: 0 0 14px; border-bottom: 1px solid var(--line); }
.tabs a { padding: 7px 12px; text-decoration: none; color: var(--ink); border: 1px solid transparent; border-bottom: 0; border-radius: 8px 8px 0 0; text-transform: capitalize; }
.tabs a[aria-current=page] { background: var(--card); border-color: var(--line); margin-bottom: -1px; font-weight: 600; }
.tabs .count { display: inline-block; min-width: 1.6em; padding: 0 6px; margin-left: 4px; border-radius: 999px; background: #e6e9ee; font-size: .82rem; text-align: center; }
.tabs a[aria-current=page] .count { background: var(--info-bg); color: var(--accent); }
.queue { list-style: none; margin: 0; padding: 0; background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
.queue-row { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 4px 10px; align-items: start; padding: 8px 12px; border-top: 1px solid #edf0f4; }
.queue-row:first-child { border-top: 0; }
.queue-row > details > summary { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 10px; align-items: center; color: var(--ink); margin: 0; padding: 4px 0; list-style: none; }
.queue-row > details > summary::-webkit-details-marker { display: none; }
.queue-row > details > summary::before { content: "▸"; color: var(--muted); grid-column: 1; grid-row: 1; margin-right: -4px; }
.queue-row > details[open] > summary::before { content: "▾"; }
.queue-row > details > summary .badge { grid-column: 1; grid-row: 1; margin-left: 14px; }
.queue-q { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
.queue-meta { white-space: nowrap; }
.queue-open { padding: 3px 10px; font-size: .9rem; margin-top: 2px; }
.queue-body { padding: 10px 0 6px; }
.queue-body .staging-card h2 { font-size: 1rem; }
@media (max-width: 860px) {
  .queue-row > details > summary { grid-template-columns: auto minmax(0, 1fr); }
  .queue-meta { grid-column: 1 / -1; white-space: normal; margin-left: 14px; }
  /* Two lines of the question on a phone: one line would leave three words. */
  .queue-q { white-space: normal; display: -webkit-box; -webkit-line-clamp: 2; line-clamp: 2; -webkit-box-orient: vertical; }
  .tabs a { padding: 6px 8px; }
}
.staging-card > * + * { margin-top: 10px; }
.review-forms { margin-top: 12px; align-items: start; }
.grid.review-forms { grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); }
@media (max-width: 860px) { .grid.review-forms { grid-template-columns: minmax(0, 1fr); } }
.confirm-step .field + button { margin-top: 10px; }
.two-step { display: inline-block; }
.two-step > summary { list-style: none; margin: 0; padding: 4px 12px; font-size: .92rem; }
.two-step > summary::-webkit-details-marker { display: none; }
.two-step[open] { display: block; flex-basis: 100%; }
.two-step[open] > summary { opacity: .75; }
.confirm-step { margin: 8px 0 4px; padding: 10px 12px; border: 1px solid #f0b4ae; background: var(--bad-bg); border-radius: 8px; }
.confirm-step p { margin: 0 0 8px; }
.button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
/* A list item with a two-step action: the button beside the text; the opened step below, across the item. */
.list-plain li.with-action { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 4px 10px; align-items: start; }
.list-plain li.with-action > .two-step[open] { grid-column: 1 / -1; }
.small-button { padding: 3px 10px; font-size: .9rem; }
h3.spaced { margin-top: 12px; }
.duplicate-reject { margin: 8px 0 10px; }
label.check { display: inline-flex; gap: 8px; align-items: baseline; font-weight: 600; color: var(--bad); }
label.check input { width: auto; }
.review-nav { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; justify-content: space-between; margin-bottom: 8px; }
.review-title { overflow-wrap: anywhere; }
.keys kbd { font: .85rem ui-monospace, Menlo, Consolas, monospace; border: 1px solid #aab3c2; border-bottom-width: 2px; border-radius: 4px; padding: 0 5px; background: #fff; color: var(--ink); }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 14px; margin: 0; }
.facts dt { color: var(--muted); font-size: .9rem; } .facts dd { margin: 0; overflow-wrap: anywhere; }
.facts dd .badge { margin-left: 6px; }
.facts dd .badge:first-child { margin-left: 0; }
@media (max-width: 480px) { .facts { grid-template-columns: minmax(0, 1fr); gap: 2px; } .facts dd { margin-bottom: 8px; } }
.sim-meter { width: 90px; height: 8px; vertical-align: middle; }
.sim-meter .meter-track { fill: #e6e9ee; }
.sim-meter .meter-fill { fill: var(--accent); } .sim-meter .band-duplicate, .sim-meter .band-same_question { fill: #c8372d; }
.sim-meter .band-related { fill: #d99a00; } .sim-meter .band-new { fill: #2e9d57; }
.badge.relation-same { background: var(--bad-bg); color: var(--bad); border-color: #f0b4ae; }
.badge.relation-related { background: var(--warn-bg); color: var(--warn); border-color: #f1cf8c; }
.badge.relation-different { background: var(--good-bg); color: var(--good); border-color: #9ed3ae; }
.list-inline { list-style: none; margin: 0; padding: 0; } .list-inline li { margin: 0 0 2px; }
.trend { white-space: nowrap; font-weight: 600; } .trend.up { color: var(--good); } .trend.down { color: var(--bad); } .trend.flat { color: var(--muted); font-weight: 400; }
.ranked { counter-reset: rank; } .ranked li { counter-increment: rank; } .ranked li::before { content: counter(rank) ". "; color: var(--muted); }
.dup-pair { overflow-wrap: anywhere; }
/* What cleaning removed: marked in the text by kind, listed under it (desk-removals.tsx). */
mark.removal { background: #ece7f9; color: #4b3a8c; border-radius: 4px; padding: 0 4px; font-size: .86em; font-weight: 600; }
.badge.removal { background: #ece7f9; color: #4b3a8c; border-color: #cfc4ef; margin-right: 4px; }
.removals { margin-top: 8px; } .removals button { padding: 1px 8px; } .removals ul { margin: 6px 0 0; padding-left: 18px; } .removals q { overflow-wrap: anywhere; }
`;
