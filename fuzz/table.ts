import type { OperationReport } from "./run";

/** The table the fuzzer prints: one row per operation, then the totals. */
export function formatTable(reports: readonly OperationReport[]): string {
  const rows = reports.map((r) => [
    `${r.method} ${r.path}`,
    String(r.requests),
    Object.entries(r.statuses)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(" "),
    String(r.failures.length),
  ]);
  const total = reports.reduce((n, r) => n + r.requests, 0);
  const failures = reports.reduce((n, r) => n + r.failures.length, 0);
  const header = ["operation", "requests", "statuses seen", "failures"];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, c) => (c === 1 || c === 3 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join(" | ")} |`;
  return [
    line(header),
    `|${widths.map((w, c) => (c === 1 || c === 3 ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`,
    ...rows.map(line),
    line([`${reports.length} operations`, String(total), "", String(failures)]),
  ].join("\n");
}
