/** `recall calibrate` against the local stack (the deploy bundle under Miniflare, the real local embedder). */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SELF_FIT_KB } from "../fixtures/self-fit-kb";
import { runRecall, stackEnv } from "./support/recall";

function jsonl(lines: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "recall-pairs-")), "pairs.jsonl");
  writeFileSync(file, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n"));
  return file;
}

/** Each FAQ with its two rewordings (the same question), and with an FAQ of another domain (unrelated). */
const labelled = SELF_FIT_KB.flatMap((f, i) => [
  ...f.variants.map((b) => ({ a: f.question, b, label: "same" })),
  { a: f.question, b: SELF_FIT_KB[(i + 12) % SELF_FIT_KB.length]!.question, label: "unrelated" },
]);

describe("recall calibrate", () => {
  it("names the bad line of a pair file and uploads nothing, from the files before it either", async () => {
    const good = jsonl([{ a: "x", b: "y", label: "same" }]);
    const file = jsonl([{ a: "x", b: "y", label: "same" }, "not json"]);
    const run = await runRecall(["calibrate", "--pairs", good, "--pairs", file, "--sources", "uploaded"], { env: stackEnv() });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(`recall: ${file}:2: not JSON\n`);
  });

  it("uploads the pairs of every file, fits on them to the end and prints the figures of the stored version", async () => {
    const half = labelled.length / 2;
    const [first, second] = [jsonl(labelled.slice(0, half)), jsonl(labelled.slice(half))];
    const run = await runRecall(["calibrate", "--pairs", first, "--pairs", second, "--sources", "uploaded"], { env: stackEnv() });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`uploaded ${half} pairs from ${first}`);
    expect(run.stdout).toContain(`uploaded ${half} pairs from ${second}`);
    expect(run.stdout).toMatch(/stored version \d+ \(fit fit_/);
    expect(run.stdout).toMatch(/pairs: +108 \(uploaded: 72 paraphrase, 36 unrelated\)/);
    expect(run.stdout).toMatch(/agreement: [\d.]+ held out/);
    expect(run.code).toBe(0);
  });

  it("says why a fit is refused, and exits 1", async () => {
    const run = await runRecall(["calibrate", "--sources", "reviews"], { env: stackEnv() });
    expect(run.stdout).toMatch(/^refused: too few pairs labelled paraphrase \(0 < 30\)/);
    expect(run.code).toBe(1);
  });
});
