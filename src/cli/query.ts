/**
 * `recall query "<text>"`: seed 001's query command, from the terminal. The text is classified
 * first: a trivial prompt prints that it is trivial and why. Otherwise the scope's similar earlier
 * questions and its memories are printed. Nothing is recorded, and there is no session, so no
 * enrichment: what the terminal shows is what the text alone finds.
 */
import { scopeForProject } from "../features/hooks/claude-code";
import type { RecallConfig } from "./config";
import { postJson, unreachable } from "./post";

const QUERY_TIMEOUT_MS = 10_000;

interface Analysis {
  class: "trivial" | "searchable";
  reason?: string;
  questionType?: string;
}
interface SimilarQuestion {
  content: string;
  similarity: number | null;
  relation?: string;
}
interface Memory {
  content: string;
  memoryType: string;
  score: number;
}

export async function query(text: string | undefined, config: RecallConfig, cwd: string): Promise<string> {
  if (!text?.trim()) throw new Error('usage: recall query "<text>"');
  const scope = config.scope ?? scopeForProject(cwd);
  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const reply = await postJson(
      `${config.url}${path}`,
      { authorization: `Bearer ${config.apiKey ?? ""}` },
      JSON.stringify(body),
      AbortSignal.timeout(QUERY_TIMEOUT_MS),
    ).catch((error: Error & { code?: string }) => {
      throw unreachable(config.url, error, QUERY_TIMEOUT_MS);
    });
    const json = JSON.parse(reply.text || "{}") as T & { error?: { message?: string } };
    if (reply.status >= 400) throw new Error(`${path}: HTTP ${reply.status}: ${json.error?.message ?? reply.text.slice(0, 200)}`);
    return json;
  };

  const analysis = await call<Analysis>("/v1/query/analyze", { text });
  if (analysis.class === "trivial") return `trivial: ${analysis.reason ?? "nothing to search for"}; nothing searched`;

  const [similar, memories] = await Promise.all([
    call<{ questions: SimilarQuestion[] }>("/v1/questions/similar", { scope, text, record: false }),
    call<{ results: Memory[] }>("/v1/memories/search", { scope, query: text, limit: 5 }),
  ]);
  const pct = (x: number | null) => (x === null ? "keyword match" : `${Math.round(x * 100)}% similar`);
  const lines = [
    `scope: ${scope}${analysis.questionType ? ` · question type: ${analysis.questionType}` : ""}`,
    "",
    "similar questions asked before:",
  ];
  lines.push(
    ...(similar.questions.length
      ? similar.questions.map((q) => `  - ${q.content} (${pct(q.similarity)}${q.relation === "related" ? ", related" : ""})`)
      : ["  (none)"]),
  );
  lines.push("", "memories:");
  lines.push(
    ...(memories.results.length
      ? memories.results.map((m) => `  - [${m.memoryType}] ${m.content} (score ${m.score.toFixed(2)})`)
      : ["  (none)"]),
  );
  return lines.join("\n");
}
