/**
 * The import's write rule (src/features/faqs/import.ts writeChunk): a chunk a unique index refuses — a
 * concurrent write took a kept id after the import looked — is written line by line, so the other
 * lines are stored and the report names exactly the lines written.
 */
import { describe, expect, it } from "vitest";
import { type ImportRows, newImportReport, writeChunk } from "../../src/features/faqs/import";
import type { FaqRow } from "../../src/features/faqs/types";

class Conflict extends Error {}

const rows = (line: number, kept: string[] = []): ImportRows => ({
  line,
  faq: { id: kept[0] ?? `faq_fresh_${line}` } as FaqRow,
  variants: [],
  versions: [],
  kept,
  duplicateVariants: 1,
});

describe("writeChunk", () => {
  it("writes a chunk at once when nothing conflicts", async () => {
    const report = newImportReport();
    const calls: number[][] = [];
    const lines = [rows(1), rows(2)];
    const written = await writeChunk(
      lines,
      async (part) => void calls.push(part.map((l) => l.line)),
      (e) => e instanceof Conflict,
      report,
    );
    expect(calls).toEqual([[1, 2]]);
    expect(written).toEqual(lines);
    expect(report).toMatchObject({ imported: [{ line: 1 }, { line: 2 }], skipped: [], duplicateVariants: 2 });
  });

  it("on a conflict, writes each line alone and skips only the line still refused", async () => {
    const report = newImportReport();
    const stored: number[] = [];
    const write = async (part: readonly ImportRows[]) => {
      if (part.some((l) => l.kept.includes("faq_raced"))) throw new Conflict();
      stored.push(...part.map((l) => l.line));
    };
    const written = await writeChunk([rows(1), rows(2, ["faq_raced"]), rows(3)], write, (e) => e instanceof Conflict, report);
    expect(stored).toEqual([1, 3]);
    expect(written.map((l) => l.line)).toEqual([1, 3]);
    expect(report.imported.map((i) => i.line)).toEqual([1, 3]);
    expect(report.skipped).toEqual([{ line: 2, code: "ID_UNAVAILABLE", message: expect.stringContaining("faq_raced") }]);
    expect(report.duplicateVariants).toBe(2);
  });

  it("lets any other failure through (the route answers it), reporting nothing as imported", async () => {
    const report = newImportReport();
    const down = new Error("database unavailable");
    await expect(
      writeChunk(
        [rows(1)],
        () => Promise.reject(down),
        (e) => e instanceof Conflict,
        report,
      ),
    ).rejects.toBe(down);
    expect(report.imported).toEqual([]);
  });
});
