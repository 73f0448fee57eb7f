// The cross-validation both fits share (`npm run fit:fusion`, `npm run fit:memory`): one
// parameter, a vector share on a 0..1 grid, chosen per fold over the queries of every English
// set, folds stratified per set, the objective the mean over sets of the training queries'
// NDCG@10 (so a large set cannot decide for a small one), each fold scored on its held-out queries.
import { basename, resolve } from "node:path";
import { importTs } from "./bundle.mjs";
import { defaultSets, loadSet, setsUnder } from "./sets.mjs";
import { startWorker } from "./worker.mjs";

export const FOLDS = 5;
export const K = 10;
const SHARES = Array.from({ length: 21 }, (_, i) => i / 20);
const { bootstrapInterval } = await importTs(new URL("./metrics.ts", import.meta.url));

/**
 * Collects every English set under --data DIR … (or the default sets), each in a Worker of its own
 * (a fresh local D1, as in `npm run eval`: FTS5's bm25 statistics span every tenant's rows).
 * `collect(worker, name, corpus, queries)` returns the set's per-query material.
 */
export async function collectSets(argv, containsCjk, collect) {
  const dirs = argv.includes("--data") ? argv.flatMap((a, i) => (argv[i - 1] === "--data" ? setsUnder(resolve(a)) : [])) : defaultSets();
  const sets = [];
  for (const dir of dirs) {
    const { corpus, queries } = loadSet(dir);
    if (corpus.slice(0, 200).some((d) => containsCjk(d.text))) continue; // the local model embeds English only
    const worker = await startWorker();
    try {
      const name = basename(dir);
      console.log(`${name}: ${corpus.length} docs, ${queries.length} queries`);
      sets.push({ name, queries: await collect(worker, name, corpus, queries) });
    } finally {
      await worker.close();
    }
  }
  return sets;
}

/**
 * Cross-validates the share: `ndcgAt(query, share)` scores one query. Prints every fold, then
 * `report(set, index, heldOut)` prints a set's line (heldOut: its queries' held-out NDCG@10).
 * Returns the fitted share, the median of the folds' choices.
 */
export function crossValidateShare(sets, label, ndcgAt, report) {
  const folds = sets.map((s) => s.queries.map((_, i) => i % FOLDS));
  const heldOut = sets.map((s) => new Array(s.queries.length));
  const table = sets.map((s) => s.queries.map((q) => SHARES.map((share) => ndcgAt(q, share))));
  console.log(`\n${label}: ${FOLDS}-fold cross-validation of the vector share (grid 0..1 by 0.05; objective: mean over sets of NDCG@${K})`);
  console.log(`fold  share  ${sets.map((s) => `${s.name} held-out`.padStart(26)).join("")}`);
  const chosen = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = (j) => mean(sets.map((s, k) => mean(table[k].filter((_, i) => folds[k][i] !== f).map((row) => row[j]))));
    let best = 0;
    for (let j = 1; j < SHARES.length; j++) if (train(j) > train(best)) best = j;
    chosen.push(SHARES[best]);
    const scores = sets.map((s, k) => {
      const held = table[k].map((row, i) => [row, i]).filter(([, i]) => folds[k][i] === f);
      for (const [row, i] of held) heldOut[k][i] = row[best];
      return mean(held.map(([row]) => row[best]));
    });
    console.log(
      `${String(f + 1).padStart(4)}  ${SHARES[best].toFixed(2).padStart(5)}  ${scores.map((x) => x.toFixed(3).padStart(26)).join("")}`,
    );
  }
  const fitted = median(chosen);
  console.log(
    `held-out NDCG@${K} per set (95% bootstrap interval over queries); the fitted share is the median of the folds: ${fitted.toFixed(2)}`,
  );
  for (const [k, s] of sets.entries()) report(s, k, heldOut[k]);
  return fitted;
}

export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

/** Mean and 95% bootstrap interval: "0.812 [0.790, 0.833]". */
export function interval(xs) {
  const b = bootstrapInterval(xs);
  return `${b.mean.toFixed(3)} [${b.low.toFixed(3)}, ${b.high.toFixed(3)}]`;
}

/** The paired difference xs − than, signed, with its interval. */
export function pairedGain(xs, than) {
  const d = bootstrapInterval(xs, { paired: than });
  return `${d.mean >= 0 ? "+" : ""}${d.mean.toFixed(3)} [${d.low.toFixed(3)}, ${d.high.toFixed(3)}]`;
}

/** The single signal with the higher mean. */
export const better = (a, b) => (mean(a) >= mean(b) ? a : b);

export function unit(v) {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

export function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
