/** `recall query` against the local stack: classified first, then similar questions and memories, nothing recorded. */
import { describe, expect, it } from "vitest";
import { runRecall, stackEnv } from "./support/recall";

describe("recall query", () => {
  it("says a trivial prompt is trivial, and why, without searching", async () => {
    const run = await runRecall(["query", "/commit"], { env: stackEnv() });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toBe("trivial: slash command; nothing searched\n");
  });

  it("prints the scope's similar questions and memories, and records nothing", async () => {
    const env = stackEnv({ RECALL_SCOPE: "cli-query" });
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${env.RECALL_URL}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.RECALL_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBeLessThan(300);
    };
    await post("/v1/memories", { scope: "cli-query", content: "How do I rotate the database password?", memoryType: "question" });
    await post("/v1/memories", { scope: "cli-query", content: "The database password lives in the team vault", memoryType: "fact" });

    const run = await runRecall(["query", "how can I rotate the database password?"], { env });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^scope: cli-query · question type: /);
    expect(run.stdout).toMatch(/similar questions asked before:\n {2}- How do I rotate the database password\? \(\d+% similar/);
    expect(run.stdout).toContain("[fact] The database password lives in the team vault");
    const again = await runRecall(["query", "how can I rotate the database password?"], { env });
    expect(again.stdout).not.toContain("how can I rotate"); // the first query was not recorded as a question
  });

  it("asks for the text", async () => {
    const run = await runRecall(["query"], { env: stackEnv() });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('recall: usage: recall query "<text>"\n');
  });
});
