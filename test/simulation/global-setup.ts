import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type {} from "./data";

const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** SHOW_SIMULATION_DATA (default ../shared/data) → the labelled streams' raw material, or null when absent. */
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
