// Query understanding per prompt: classifyQuery + detectQuestionType + expandQuery, the pure work
// every search and context call does first (target: < 20 µs median on this machine).
import { importTs } from "./support/bundle.mjs";
import { prompts } from "./support/data.mjs";
import { percentiles, saveResults } from "./support/stats.mjs";

const text = await importTs(new URL("./entries/text.ts", import.meta.url));
const inputs = [
  ...prompts(400, []),
  "ok",
  "/commit",
  "sounds good",
  "我是什么用户",
  "我现在在哪",
  "数据库密码怎么重置？",
  "why was this file changed?",
  'NEAR(" OR * AND NOT',
  "what does error E500 on PO-12345 mean",
];
const analyse = (p) => {
  text.classifyQuery(p);
  text.detectQuestionType(p);
  text.expandQuery(p);
};
for (let i = 0; i < 3; i++) for (const p of inputs) analyse(p); // warm-up (JIT)

const samples = [];
for (let round = 0; round < 20; round++) {
  for (const p of inputs) {
    const start = process.hrtime.bigint();
    analyse(p);
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
}
const s = percentiles(samples);
console.log("\nQuery understanding (classify + question type + expansion), per prompt");
console.log(`  p50 ${s.p50.toFixed(1)} µs · p95 ${s.p95.toFixed(1)} µs · p99 ${s.p99.toFixed(1)} µs   (n = ${s.n}, target p50 < 20 µs)`);
saveResults("query-understanding", { unit: "µs", ...s });
