// Hand-written SVG charts for the reports under docs/reports/ (scripts/report.mjs): pure
// functions from figures to an SVG string, no dependency, no external font (the viewer's own
// sans-serif). Each chart has a title, axis ticks with labels, a legend, and data-* attributes
// on its marks (data-group, data-series) so a test can count them.

const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";
const INK = "#222";
const MUTED = "#666";
const GRID = "#e3e3e3";

/** Text for SVG: &, <, > and quotes escaped. */
export const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A rough width of `text` at `size` px in a sans-serif font (average glyph ≈ 0.58 em). */
export const textWidth = (text, size) => String(text).length * size * 0.58;

const round = (x) => Math.round(x * 10) / 10;

/** A number for an axis tick: no trailing zeros, thousands as "k". */
export function tickLabel(v) {
  if (v === 0) return "0";
  const text = Math.abs(v) >= 1000 ? `${+(v / 1000).toPrecision(3)}k` : `${+v.toPrecision(3)}`;
  return text.replace(/^-/, "−");
}

/** About `count` round ticks from `min` to `max` (steps of 1, 2 or 5 × 10^k). */
export function linearTicks(min, max, count = 5) {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => span / s <= count) ?? 10 * power;
  const ticks = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) ticks.push(+v.toPrecision(12));
  return ticks;
}

/** The first round tick at or above `v` (the top of a linear axis from `min`). */
export function niceMax(min, v) {
  const ticks = linearTicks(min, v);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : Math.abs(v) || 1;
  return ticks.at(-1) >= v ? ticks.at(-1) : +(ticks.at(-1) + step).toPrecision(12);
}

/** Ticks of a log axis: 1, 2, 5 × 10^k within [min, max] (only powers of ten when the range spans more than 3 decades). */
export function logTicks(min, max) {
  const ticks = [];
  const decades = Math.log10(max / min);
  const mantissas = decades > 3 ? [1] : [1, 2, 5];
  for (let p = Math.floor(Math.log10(min)); p <= Math.ceil(Math.log10(max)); p++) {
    for (const m of mantissas) {
      const v = +(m * 10 ** p).toPrecision(12);
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) ticks.push(v);
    }
  }
  return ticks;
}

/** A scale from a data range to pixels, linear or log10. */
export function scale({ min, max, from, to, log = false }) {
  const f = log ? Math.log10 : (v) => v;
  const [a, b] = [f(min), f(max)];
  return (v) => from + ((f(v) - a) / (b - a || 1)) * (to - from);
}

/** A log range padded out to the 1-2-5 ticks around the data. */
function logRange(values) {
  const positive = values.filter((v) => v > 0);
  const lo = Math.min(...positive);
  const hi = Math.max(...positive);
  const down = (v) => {
    const p = 10 ** Math.floor(Math.log10(v));
    return [5, 2, 1].map((m) => m * p).find((t) => t <= v * (1 + 1e-9)) ?? p;
  };
  const up = (v) => {
    const p = 10 ** Math.floor(Math.log10(v));
    return [1, 2, 5, 10].map((m) => m * p).find((t) => t >= v * (1 - 1e-9)) ?? 10 * p;
  };
  return [down(lo), up(hi)];
}

/** The SVG around a chart: white background, title, the body, and a footnote (when and where the figures were made). */
function frame(width, height, title, body, note) {
  const lines = note ? wrap(note, Math.floor((width - 32) / (10 * 0.6))) : [];
  const total = height + lines.length * 14 + (lines.length > 0 ? 8 : 0);
  const foot = lines.map((l, i) => `\n<text x="16" y="${height + 8 + i * 14}" font-size="10" fill="${MUTED}">${esc(l)}</text>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}" font-family="${FONT}" font-size="12" fill="${INK}">
<rect width="${width}" height="${total}" fill="#fff"/>
<text x="16" y="24" font-size="15" font-weight="bold">${esc(title)}</text>
${body}${foot}
</svg>
`;
}

/** Lines of at most `max` characters, broken at " · " or spaces. */
export function wrap(text, max) {
  const lines = [];
  let line = "";
  for (const word of String(text).split(/(?<= · )|(?<= )/)) {
    if (line && (line + word).trimEnd().length > max) {
      lines.push(line.trimEnd().replace(/ ·$/, ""));
      line = "";
    }
    line += word;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

function yAxis({ ticks, y, left, right, label, top, bottom, format = tickLabel }) {
  const lines = ticks.map(
    (t) =>
      `<line x1="${left}" x2="${right}" y1="${round(y(t))}" y2="${round(y(t))}" stroke="${GRID}"/><text x="${left - 6}" y="${round(y(t)) + 4}" text-anchor="end" fill="${MUTED}">${esc(format(t))}</text>`,
  );
  const mid = round((top + bottom) / 2);
  return [
    ...lines,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}" stroke="${MUTED}"/>`,
    `<text transform="translate(16 ${mid}) rotate(-90)" text-anchor="middle">${esc(label)}</text>`,
  ].join("\n");
}

/** A legend: rows of { label?, items: [{ name, color, dash?, kind: "box" | "line" }] }, from (x, y); returns its SVG and height. */
function legend(rows, x, y, width) {
  const out = [];
  let cy = y;
  // Labels in a column of their own (bold glyphs are wider), so the swatches line up.
  const labelColumn = Math.max(0, ...rows.map((r) => (r.label ? textWidth(r.label, 12) * 1.12 + 14 : 0)));
  for (const row of rows) {
    let cx = x;
    if (row.label) out.push(`<text x="${cx}" y="${cy + 10}" font-weight="bold">${esc(row.label)}</text>`);
    cx += labelColumn;
    for (const item of row.items) {
      const swatch = item.kind === "line" ? 30 : 14;
      const w = swatch + 6 + textWidth(item.name, 12) + 14;
      if (cx + w > x + width && cx > x + 40) {
        cy += 18;
        cx = x + labelColumn;
      }
      out.push(
        item.kind === "line"
          ? `<line x1="${cx}" x2="${cx + swatch}" y1="${cy + 6}" y2="${cy + 6}" stroke="${item.color}" stroke-width="2.5"${item.dash ? ` stroke-dasharray="${item.dash}"` : ""}/><circle cx="${cx + swatch / 2}" cy="${cy + 6}" r="3" fill="${item.color}"/>`
          : `<rect x="${cx}" y="${cy}" width="14" height="12" fill="${item.color}"/>`,
        `<text x="${cx + swatch + 6}" y="${cy + 10}">${esc(item.name)}</text>`,
      );
      cx += w;
    }
    cy += 20;
  }
  return { svg: out.join("\n"), height: cy - y };
}

/**
 * Grouped vertical bars with optional interval whiskers.
 * groups: [{ label, sublabel?, bars: [{ series, value, low?, high? } | { series, missing: "n/a" }] }];
 * series: [{ key, name, color, legendRow? }] in drawing order (a bar's slot in its group);
 * legendRows: [{ label?, keys: [series key] }] (default: one row of every series).
 */
export function barChart({
  title,
  yLabel,
  groups,
  series,
  legendRows,
  yMin = 0,
  yMax,
  valueLabels = false,
  format = (v) => v.toFixed(3),
  note,
}) {
  const barWidth = series.length > 6 ? 18 : 34;
  const barGap = 3;
  const left = 70;
  const barsWidth = series.length * (barWidth + barGap) - barGap;
  // Each group in a slot of its own, wide enough for its bars and its label, centred in it.
  const slot = Math.max(barsWidth + (series.length > 6 ? 44 : 28), ...groups.map((g) => textWidth(g.label, 12) * 1.12 + 16));
  const width = Math.max(640, left + groups.length * slot + 24);
  const slotWidth = (width - 16 - left) / groups.length;
  const rows = (legendRows ?? [{ keys: series.map((s) => s.key) }]).map((r) => ({
    label: r.label,
    items: r.keys.map((k) => series.find((s) => s.key === k)).filter(Boolean),
  }));
  const legendSvg = legend(rows, left, 40, width - left - 16);
  const top = 40 + legendSvg.height + 20;
  const plotHeight = 300;
  const bottom = top + plotHeight;
  const hasSub = groups.some((g) => g.sublabel);
  const height = bottom + (hasSub ? 52 : 38);
  const highs = groups.flatMap((g) => g.bars.map((b) => b.high ?? b.value ?? 0));
  const max = yMax ?? niceMax(yMin, Math.max(...highs) * (valueLabels ? 1.12 : 1.04));
  const ticks = linearTicks(yMin, max);
  const y = scale({ min: yMin, max, from: bottom, to: top });
  const marks = [];
  groups.forEach((g, gi) => {
    const x0 = round(left + gi * slotWidth + (slotWidth - barsWidth) / 2);
    series.forEach((s, si) => {
      const bar = g.bars.find((b) => b.series === s.key);
      const x = x0 + si * (barWidth + barGap);
      const attrs = `data-group="${esc(g.label)}" data-series="${esc(s.key)}"`;
      if (!bar || bar.value == null) {
        if (bar?.missing)
          marks.push(
            `<text transform="translate(${round(x + barWidth / 2 + 3)} ${bottom - 4}) rotate(-90)" font-size="9" fill="${MUTED}" ${attrs} class="missing">${esc(bar.missing)}</text>`,
          );
        return;
      }
      const yTop = round(y(Math.max(yMin, bar.value)));
      marks.push(
        `<rect class="bar" ${attrs} x="${x}" y="${yTop}" width="${barWidth}" height="${round(bottom - yTop)}" fill="${s.color}"><title>${esc(`${g.label} · ${s.name}: ${format(bar.value)}${bar.low != null ? ` [${format(bar.low)}, ${format(bar.high)}]` : ""}`)}</title></rect>`,
      );
      if (bar.low != null && bar.high != null) {
        const cx = x + barWidth / 2;
        const [y1, y2] = [round(y(bar.low)), round(y(bar.high))];
        marks.push(
          `<path class="whisker" d="M${cx} ${y1}V${y2}M${cx - 4} ${y1}H${cx + 4}M${cx - 4} ${y2}H${cx + 4}" stroke="${INK}" stroke-width="1.2" fill="none"/>`,
        );
      }
      if (valueLabels)
        marks.push(
          `<text x="${x + barWidth / 2}" y="${round(y(bar.high ?? bar.value)) - 5}" text-anchor="middle" font-size="11">${esc(format(bar.value))}</text>`,
        );
    });
    const cx = round(x0 + barsWidth / 2);
    marks.push(`<text x="${cx}" y="${bottom + 18}" text-anchor="middle" font-weight="bold">${esc(g.label)}</text>`);
    if (g.sublabel)
      marks.push(`<text x="${cx}" y="${bottom + 34}" text-anchor="middle" fill="${MUTED}" font-size="11">${esc(g.sublabel)}</text>`);
  });
  const axis = yAxis({ ticks, y, left, right: width - 16, label: yLabel, top, bottom });
  return frame(
    width,
    height,
    title,
    [legendSvg.svg, axis, ...marks, `<line x1="${left}" x2="${width - 16}" y1="${bottom}" y2="${bottom}" stroke="${MUTED}"/>`].join("\n"),
    note,
  );
}

/**
 * Lines over a numeric x axis (log or linear), each point marked.
 * series: [{ key, name, color, dash?, points: [[x, y]] }]; xTicks: the x values to label (default: the points').
 */
export function lineChart({
  title,
  xLabel,
  yLabel,
  series,
  xLog = false,
  yLog = false,
  xTicks,
  yMin,
  yFormat = tickLabel,
  xFormat = tickLabel,
  note,
}) {
  const width = 760;
  const left = 76;
  const right = width - 24;
  const legendSvg = legend([{ items: series.map((s) => ({ ...s, kind: "line" })) }], left, 40, right - left);
  const top = 40 + legendSvg.height + 16;
  const bottom = top + 320;
  const height = bottom + 54;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const [xMin, xMax] = xLog ? [Math.min(...xs) / 1.25, Math.max(...xs) * 1.25] : [Math.min(...xs), Math.max(...xs)];
  const [yLo, yHi] = yLog ? logRange(ys) : [yMin ?? 0, niceMax(yMin ?? 0, Math.max(...ys) * 1.04)];
  const x = scale({ min: xMin, max: xMax, from: left + (xLog ? 0 : 20), to: right - (xLog ? 0 : 20), log: xLog });
  const yScale = scale({ min: yLo, max: yHi, from: bottom, to: top, log: yLog });
  const y = (v) => yScale(Math.max(v, yLog ? yLo : -Infinity)); // a log axis has no 0: clamp to its floor
  const yt = yLog ? logTicks(yLo, yHi) : linearTicks(yLo, yHi);
  const xt = xTicks ?? [...new Set(xs)].sort((a, b) => a - b);
  const marks = [
    yAxis({ ticks: yt, y, left, right, label: yLabel, top, bottom, format: yFormat }),
    `<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="${MUTED}"/>`,
    ...xt.map(
      (t) =>
        `<line x1="${round(x(t))}" x2="${round(x(t))}" y1="${bottom}" y2="${bottom + 5}" stroke="${MUTED}"/><text x="${round(x(t))}" y="${bottom + 19}" text-anchor="middle" fill="${MUTED}">${esc(xFormat(t))}</text>`,
    ),
    `<text x="${round((left + right) / 2)}" y="${bottom + 42}" text-anchor="middle">${esc(xLabel)}</text>`,
  ];
  for (const s of series) {
    const pts = s.points.map(([px, py]) => `${round(x(px))},${round(y(py))}`);
    marks.push(
      `<polyline class="line" data-series="${esc(s.key)}" points="${pts.join(" ")}" fill="none" stroke="${s.color}" stroke-width="2.5"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`,
      ...s.points.map(
        ([px, py]) =>
          `<circle class="point" data-series="${esc(s.key)}" cx="${round(x(px))}" cy="${round(y(py))}" r="3.5" fill="${s.color}"><title>${esc(`${s.name} at ${xFormat(px)}: ${yFormat(py)}`)}</title></circle>`,
      ),
    );
  }
  return frame(width, height, title, [legendSvg.svg, ...marks].join("\n"), note);
}

/**
 * Differences with their intervals, one row each, around a zero line (a forest plot).
 * rows: [{ label, mean, low, high, group? }]; blue when the interval excludes 0, grey when it spans
 * it; rows of every other group on a shaded band.
 */
export function intervalChart({ title, xLabel, rows, format = (v) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`, note }) {
  const labelWidth = Math.max(...rows.map((r) => textWidth(r.label, 12))) + 24;
  const width = Math.max(760, Math.ceil(labelWidth) + 520);
  const left = Math.ceil(labelWidth);
  const right = width - 90;
  const legendSvg = legend(
    [
      {
        items: [
          { name: "interval excludes 0", color: "#2b6cb0", kind: "box" },
          { name: "within noise (interval spans 0)", color: "#a0a0a0", kind: "box" },
        ],
      },
    ],
    left,
    40,
    right - left,
  );
  const top = 40 + legendSvg.height + 14;
  const rowHeight = 24;
  const bottom = top + rows.length * rowHeight + 8;
  const height = bottom + 50;
  const lo = Math.min(0, ...rows.map((r) => r.low));
  const hi = Math.max(0, ...rows.map((r) => r.high));
  const ticks = linearTicks(lo, hi, 6);
  const [min, max] = [Math.min(lo, ticks[0]), Math.max(hi, ticks.at(-1))];
  const x = scale({ min, max, from: left, to: right });
  const marks = [
    ...ticks.map(
      (t) =>
        `<line x1="${round(x(t))}" x2="${round(x(t))}" y1="${top}" y2="${bottom}" stroke="${GRID}"/><text x="${round(x(t))}" y="${bottom + 18}" text-anchor="middle" fill="${MUTED}">${esc(t === 0 ? "0" : format(t))}</text>`,
    ),
    `<line x1="${round(x(0))}" x2="${round(x(0))}" y1="${top}" y2="${bottom}" stroke="${INK}" stroke-width="1.2"/>`,
    `<text x="${round((left + right) / 2)}" y="${bottom + 40}" text-anchor="middle">${esc(xLabel)}</text>`,
  ];
  const groups = [...new Set(rows.map((r) => r.group))];
  rows.forEach((r, i) => {
    if (groups.indexOf(r.group) % 2 === 1)
      marks.unshift(`<rect x="8" y="${top + 8 + i * rowHeight}" width="${width - 16}" height="${rowHeight}" fill="#f4f6f9"/>`);
  });
  rows.forEach((r, i) => {
    const cy = top + 8 + i * rowHeight + rowHeight / 2;
    const color = r.low > 0 || r.high < 0 ? "#2b6cb0" : "#a0a0a0";
    marks.push(
      `<text x="${left - 10}" y="${cy + 4}" text-anchor="end">${esc(r.label)}</text>`,
      `<path class="interval" data-series="${esc(r.label)}" d="M${round(x(r.low))} ${cy}H${round(x(r.high))}M${round(x(r.low))} ${cy - 5}V${cy + 5}M${round(x(r.high))} ${cy - 5}V${cy + 5}" stroke="${color}" stroke-width="2" fill="none"/>`,
      `<circle cx="${round(x(r.mean))}" cy="${cy}" r="4.5" fill="${color}"><title>${esc(`${r.label}: ${format(r.mean)} [${format(r.low)}, ${format(r.high)}]`)}</title></circle>`,
      `<text x="${right + 8}" y="${cy + 4}" font-size="11" fill="${MUTED}">${esc(format(r.mean))}</text>`,
    );
  });
  return frame(width, height, title, [legendSvg.svg, ...marks].join("\n"), note);
}
