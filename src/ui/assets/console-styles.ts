/**
 * The producer console's rules, after the shared ones (styles.ts). Text wraps at spaces
 * (break-word), never mid-word unless one word is wider than its box. The narrow-screen history
 * rules come after the base .history rules, so they win (they used to sit before them and lost:
 * at 390 px the question column kept 6.5em, ~95 px).
 */
export const CONSOLE_CSS = String.raw`
.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.cand-row { display: grid; grid-template-columns: minmax(0, 1fr) 8.5em 6.5em; gap: 4px 8px; margin-bottom: 6px; }
.cand-row label { font-size: .86rem; margin: 4px 0 2px; } .cand-error { grid-column: 1 / -1; }
.done-line { color: var(--good); font-weight: 600; margin: 8px 0 0; }
.rankings { list-style: none; margin: 0; padding: 0; } .rankings > li { padding: 8px 0; border-top: 1px solid #edf0f4; overflow-wrap: break-word; }
.rankings > li:first-child { border-top: 0; } .rankings > li[aria-current] { background: var(--info-bg); border-radius: 6px; padding: 8px; }
.rankings ol { margin: 4px 0 0; padding-left: 1.4em; }
.confirm { max-width: 640px; }
/* Below 1100 px the right column is too narrow for three history columns: time and button on one line, the question below. */
@media (max-width: 1100px) {
  .history li { grid-template-columns: minmax(0, 1fr) auto; grid-template-areas: "when used" "text text"; gap: 2px 8px; }
  .history .when { grid-area: when; } .history .text { grid-area: text; } .history li > form, .history .used { grid-area: used; justify-self: end; } }
@media (max-width: 560px) { .cand-row { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); padding-bottom: 6px; border-bottom: 1px solid #edf0f4; }
  .cand-q { grid-column: 1 / -1; } }
`;
