// `npm run bench`: latency of the show ranking step for 12 candidates against a 100-question
// history, (a) embedding excluded: the pure pipeline of src/core/novelty/novelty-rank.ts, which is what
// the ShowMemory Durable Object runs per rank, and (b) embedding included: one batch call to the
// real local embedder (USE-lite over HTTP on 127.0.0.1, as in `npm start`) + the pipeline.
// The pipeline is bundled from TypeScript with esbuild (bench/support/bundle.mjs); it runs in Node,
// so the Durable Object's SQLite write and the RPC hop are not in these figures.
import { startLocalEmbedder } from "../scripts/local-embedder.mjs";
import { importTs } from "./support/bundle.mjs";
import { percentiles, saveResults } from "./support/stats.mjs";

const lib = await importTs(new URL("./entries/show-rank.ts", import.meta.url));

const SUBJECTS = [
  "machine consciousness",
  "nuclear power",
  "remote work",
  "life on Mars",
  "social media and teenagers",
  "the fall of Rome",
  "electric cars",
  "the minimum wage",
  "dark matter",
  "sleep",
  "asteroid mining",
  "the printing press",
  "meditation",
  "self-driving cars",
  "carbon taxes",
  "university degrees",
  "space debris",
  "intermittent fasting",
  "the Black Death",
  "AI and jobs",
];
const ANGLES = [
  "What is the strongest evidence about {s}?",
  "How will {s} change the next decade?",
  "Who benefits most from {s}?",
  "What do most people get wrong about {s}?",
  "Should governments regulate {s}?",
];
const history = SUBJECTS.flatMap((s) => ANGLES.map((a) => a.replace("{s}", s))); // 100
const candidates = ["What surprised researchers most about {s}?", "Is {s} overrated?", "How would you explain {s} to a child?"].flatMap(
  (a) => ["octopus intelligence", "quantum computing", "the Roman Empire", "ocean acidification"].map((s) => a.replace("{s}", s)),
); // 12

const { server, url } = await startLocalEmbedder();
const embed = async (texts) => {
  const res = await fetch(`${url}/embed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ texts }),
  });
  if (!res.ok) throw new Error(`embedder answered ${res.status}`);
  return (await res.json()).vectors.map((v) => Float32Array.from(v));
};

const MIN = 60_000;
const now = Date.UTC(2025, 9, 19, 13, 0);
const historyVectors = await embed(history);
const past = history.map((text, i) => ({
  id: `q${i}`,
  text,
  vector: historyVectors[i],
  terms: lib.lexicalTerms(text),
  askedAt: now - (100 - i) * 1.8 * MIN,
  wasUsed: i % 7 === 0,
}));
const calibration = lib.calibrationFor("use-lite-512");
const repeat = lib.repeatModelFor("use-lite-512");
const config = { ...lib.DEFAULT_NOVELTY_CONFIG };
const rank = (vectors) =>
  lib.rankCandidates({
    candidates: candidates.map((text, i) => ({
      text,
      vector: vectors[i],
      terms: lib.lexicalTerms(text),
      model: ["gpt-4o", "claude", "gemini"][i % 3],
      confidence: 0.5 + (i % 5) / 10,
    })),
    history: past,
    now,
    config,
    calibration,
    repeat,
    topN: 5,
  });

function stats(samples) {
  const s = percentiles(samples);
  return `p50 ${s.p50.toFixed(3)} ms · p95 ${s.p95.toFixed(3)} ms · max ${s.max.toFixed(3)} ms (n = ${s.n})`;
}

const candidateVectors = await embed(candidates);
// Embedding included first: a long CPU-only phase before it would leave the keep-alive connection
// idle past the server's timeout, and the next fetch would meet a reset (seen on a loaded machine).
for (let i = 0; i < 5; i++) rank(await embed(candidates)); // warm-up
const included = [];
for (let i = 0; i < 100; i++) {
  const t = performance.now();
  rank(await embed(candidates));
  included.push(performance.now() - t);
}
server.close();
for (let i = 0; i < 50; i++) rank(candidateVectors); // warm-up
const excluded = [];
for (let i = 0; i < 1000; i++) {
  const t = performance.now();
  rank(candidateVectors);
  excluded.push(performance.now() - t);
}

const sample = rank(candidateVectors);
console.log(
  `show rank: 12 candidates vs a 100-question history (USE-lite 512-d, calibration ${calibration ? calibration.method : "none"}, repeat table ${repeat ? `lexicalWeight ${repeat.lexicalWeight}` : "none"}), Node ${process.version}`,
);
console.log(`  embedding excluded (pure pipeline):             ${stats(excluded)}   target ≤ 5 ms`);
console.log(`  embedding included (1 batch call + pipeline):   ${stats(included)}`);
console.log(`  (sample run: ${sample.picks.length} picks, ${sample.filtered.length} filtered)`);
saveResults("show-rank", { embeddingExcluded: percentiles(excluded), embeddingIncluded: percentiles(included) });
