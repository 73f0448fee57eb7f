/** The stylesheet of /ui, served as /ui/assets/app-<hash>.css (CSP: style-src 'self'; no inline styles anywhere). */
export const STYLES_CSS = String.raw`
:root { --bg:#f6f7f9; --card:#fff; --ink:#1c2330; --muted:#5b6576; --line:#d9dee6; --accent:#2456c7;
  --good:#1e7a3c; --good-bg:#e3f4e8; --warn:#8a5a00; --warn-bg:#fff1d6; --bad:#b3261e; --bad-bg:#fde7e5; --info-bg:#e6eefc; }
* { box-sizing: border-box; }
html { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
body { margin: 0; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f2b705; outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 6px; z-index: 9; }
header.top { background: #18202e; color: #fff; padding: 10px 20px; display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: center; }
header.top .brand { font-weight: 700; color: #fff; text-decoration: none; font-size: 1.1rem; }
header.top nav { display: flex; flex-wrap: wrap; gap: 4px 14px; flex: 1; }
header.top nav a { color: #cfe0ff; text-decoration: none; padding: 4px 2px; }
header.top nav a[aria-current=page] { color: #fff; border-bottom: 2px solid #f2b705; }
header.top .who { color: #cfd6e2; font-size: .9rem; display: flex; gap: 10px; align-items: center; }
header.top .who button { background: transparent; color: #fff; border: 1px solid #7d8aa3; }
main { max-width: 1240px; margin: 0 auto; padding: 18px 20px 40px; }
h1 { font-size: 1.45rem; margin: 4px 0 14px; } h2 { font-size: 1.1rem; margin: 0 0 10px; } h3 { font-size: 1rem; margin: 0 0 6px; }
.grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
.grid.wide-left { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
@media (max-width: 860px) { .grid, .grid.wide-left { grid-template-columns: minmax(0, 1fr); } main { padding: 12px 12px 32px; }
  header.top nav { order: 3; flex-basis: 100%; } header.top .who { margin-left: auto; } }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; margin-bottom: 16px; min-width: 0; }
.muted { color: var(--muted); } .small { font-size: .86rem; }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.row label { margin: 0; } .row select, .row input { width: auto; }
.spread { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 8px; align-items: baseline; }
label { display: block; font-weight: 600; margin: 8px 0 4px; }
input[type=text], input[type=password], input[type=number], input[type=search], select, textarea {
  width: 100%; font: inherit; padding: 8px 10px; border: 1px solid #aab3c2; border-radius: 6px; background: #fff; color: var(--ink); }
textarea { min-height: 7.5em; resize: vertical; }
.inline-field { display: inline-flex; gap: 6px; align-items: center; } .inline-field input { width: 6em; }
button, .button { font: inherit; padding: 7px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent);
  color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger, .button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .6; cursor: default; }
.field-error { color: var(--bad); font-size: .88rem; margin: 4px 0 0; }
[aria-invalid=true] { border-color: var(--bad) !important; background: #fffafa !important; }
.notice { padding: 10px 12px; border-radius: 8px; margin-bottom: 14px; border: 1px solid; }
.notice.ok { background: var(--good-bg); border-color: #9ed3ae; } .notice.error { background: var(--bad-bg); border-color: #f0b4ae; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: .82rem; font-weight: 600; border: 1px solid transparent; white-space: nowrap; }
.badge.active, .badge.kept, .badge.boosted, .badge.approved { background: var(--good-bg); color: var(--good); border-color: #9ed3ae; }
.badge.paused, .badge.penalised, .badge.pending, .badge.MERGE { background: var(--warn-bg); color: var(--warn); border-color: #f1cf8c; }
.badge.filtered, .badge.rejected, .badge.ended { background: var(--bad-bg); color: var(--bad); border-color: #f0b4ae; }
.badge.NEW, .badge.info { background: var(--info-bg); color: var(--accent); border-color: #b7cbf5; }
.status-badge dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 14px; margin: 8px 0 0; }
.status-badge dt { color: var(--muted); } .status-badge dd { margin: 0; font-weight: 600; }
.history { list-style: none; margin: 0; padding: 0; }
.history li { display: grid; grid-template-columns: 6.5em minmax(0, 1fr) auto; gap: 8px; padding: 7px 0; border-top: 1px solid #edf0f4; align-items: center; }
.history li:first-child { border-top: 0; }
.history .when { color: var(--muted); font-size: .88rem; }
.history .text { overflow-wrap: break-word; }
.history .used { font-weight: 700; } .history .used.yes { color: var(--good); } .history .used.no { color: var(--muted); }
.history form { margin: 0; } .history button { padding: 2px 8px; font-size: .85rem; }
.forgotten { opacity: .6; }
.results { min-height: 180px; }
.qcard { border: 1px solid var(--line); border-left-width: 6px; border-radius: 8px; padding: 10px 12px; margin-bottom: 10px; background: #fff; }
.qcard.band-high { border-left-color: #2e9d57; } .qcard.band-mid { border-left-color: #d99a00; } .qcard.band-low { border-left-color: #c8372d; }
.qcard.filtered { background: #fbfbfc; border-style: dashed; border-left-style: solid; border-left-color: #8a94a6; }
.qcard .head { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; font-weight: 600; }
.qcard .head .score { margin-left: auto; }
.qcard blockquote { margin: 8px 0 4px; font-size: 1.02rem; overflow-wrap: break-word; }
.qcard .novelty { font-size: .92rem; }
.warning { color: var(--warn); background: var(--warn-bg); border-radius: 6px; padding: 4px 8px; margin: 6px 0 0; font-size: .92rem; overflow-wrap: break-word; }
.filtered .warning { color: var(--bad); background: var(--bad-bg); }
.meter { display: inline-block; width: 80px; height: 8px; background: #e6e9ee; border-radius: 4px; vertical-align: middle; }
table { width: 100%; border-collapse: collapse; } th, td { text-align: left; padding: 6px 8px; border-top: 1px solid #edf0f4; vertical-align: top; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
/* Scroll shadows: an edge darkens while more of the table lies beyond it (the covers scroll with the table, the shadows stay put; each cover is solid over its 16px shadow, so a table that fits shows none). */
.table-wrap { overflow-x: auto; background: linear-gradient(to right, var(--card) 16px, rgb(255 255 255 / 0)) left / 40px 100% no-repeat local, linear-gradient(to left, var(--card) 16px, rgb(255 255 255 / 0)) right / 40px 100% no-repeat local, radial-gradient(farthest-side at 0 50%, rgb(0 0 0 / .3), transparent) left / 16px 100% no-repeat scroll, radial-gradient(farthest-side at 100% 50%, rgb(0 0 0 / .3), transparent) right / 16px 100% no-repeat scroll; }
.side-by-side { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
@media (max-width: 860px) { .side-by-side { grid-template-columns: minmax(0, 1fr); } }
.pane { border: 1px solid #edf0f4; border-radius: 8px; padding: 8px 10px; background: #fbfcfd; overflow-wrap: anywhere; }
.pane h3 { font-size: .85rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
.pre { white-space: pre-wrap; }
details summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
.diff { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .88rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.diff ins { background: #d7f5df; text-decoration: none; } .diff del { background: #fbd9d6; }
figure { margin: 0; }
.chart { width: 100%; height: auto; display: block; } .chart .bar { fill: var(--accent); } .chart .axis { fill: var(--muted); font-size: 10px; } .chart .baseline { fill: #aab3c2; }
.list-plain { list-style: none; padding: 0; margin: 0; } .list-plain li { padding: 6px 0; border-top: 1px solid #edf0f4; }
.list-plain li:first-child { border-top: 0; }
.signin { max-width: 440px; margin: 60px auto; }
.kpis { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 10px; margin-bottom: 16px; }
.kpi { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px; } .kpi b { display: block; font-size: 1.4rem; }
`;
