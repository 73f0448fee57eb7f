import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type {} from "./data";
// @ts-expect-error: plain ESM module shared with `npm run calibrate -- --repeat`, no type declarations
import { SIMULATION_THREADS_HALF, simulationHalf } from "../../scripts/repeat-fit.mjs";

const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * SHOW_SIMULATION_DATA (default ../shared/data) → the labelled streams' raw material, or null when
 * absent: the stackfaq threads of the half the held-out repeat table never saw, and other-domain questions.
 */
export default function setup(project: TestProject) {
  const dir = path.resolve(process.env.SHOW_SIMULATION_DATA ?? "../shared/data");
  const stackfaq = path.join(dir, "stackfaq", "queries.jsonl");
  const mqp = path.join(dir, "pairs", "mqp", "pairs.jsonl");
  const semeval = path.join(dir, "semeval2016-cqa", "queries.jsonl");
  if (![stackfaq, mqp, semeval].every((f) => existsSync(f))) {
    project.provide("showSimulationData", null);
    return;
  }
  const byThread = new Map<string, string[]>();
  for (const q of readJsonl(stackfaq)) {
    const thread = (q.relevant as string[])[0]!;
    // Only the threads the held-out repeat table was not fitted on (scripts/repeat-fit.mjs).
    if (simulationHalf(thread) !== SIMULATION_THREADS_HALF) continue;
    byThread.set(thread, [...(byThread.get(thread) ?? []), String(q.text)]);
  }
  const medical = [...new Set(readJsonl(mqp).map((p) => String(p.a)))];
  const forum = readJsonl(semeval).map((q) => String(q.text).split("\n")[0]!);
  const newTopics = [...new Set([...medical, ...forum])].filter((t) => t.length >= 10 && t.length <= 300);
  project.provide("showSimulationData", {
    threads: [...byThread].map(([id, paraphrases]) => ({ id, paraphrases })).sort((a, b) => a.id.localeCompare(b.id)),
    newTopics: newTopics.sort(),
  });
}
