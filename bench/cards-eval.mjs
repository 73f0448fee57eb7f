// Card extraction quality (seed 003: "> 80% of user statements extract at least one card") on the
// project's own labelled sets: English and Chinese statements, each with the cards a reader
// expects (slot, value, and whether it ends the value).
// - bench/data/cards.labelled.jsonl (216): the development set; the rules were widened on it, so
//   its figures are in-sample;
// - bench/data/cards.heldout.jsonl (61): written after the rules were, and never tuned on: the
//   honest estimate for the first round of rules;
// - bench/data/cards.heldout2.jsonl (60): written after round 2's rules (changes of home and job,
//   diet, relationship, event and goal cards), before they were run on it, and never tuned on.
// Runs the product's extractCards (bundled from src/) — no Worker, no model. Part of
// `npm run eval`; `npm run eval -- --cards [--misses]` runs only this.
import { readFileSync } from "node:fs";
import { importTs } from "./support/bundle.mjs";

export const CARD_SETS = [
  ["bench/data/cards.labelled.jsonl", "development, in-sample"],
  ["bench/data/cards.heldout.jsonl", "held out 1 (issue 32's set)"],
  ["bench/data/cards.heldout2.jsonl", "held out 2 (round 3 was fitted on its misses)"],
  ["bench/data/cards.heldout3.jsonl", "held out 3 (written before round 3; round 4 was fitted on its misses)"],
  ["bench/data/cards.heldout4.jsonl", "held out 4 (written before round 4, never tuned on)"],
];
/** Seed 003's success criterion. */
export const COVERAGE_TARGET = 0.8;

export async function runCardsEval() {
  const { extractCards } = await importTs(new URL("../src/core/text/cards.ts", import.meta.url));
  const { scoreCards } = await importTs(new URL("./support/card-metrics.ts", import.meta.url));
  const results = [];
  for (const [path, label] of CARD_SETS) results.push(evaluateSet(path, label, extractCards, scoreCards));
  return results;
}

function evaluateSet(path, label, extractCards, scoreCards) {
  const set = readFileSync(new URL(`../${path}`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const extract = (text) => extractCards(text).map((c) => ({ slot: c.slot, value: c.value, retracts: c.retracts }));
  const rows = [
    ["all", scoreCards(set, extract)],
    ...["en", "zh"].map((lang) => [
      lang,
      scoreCards(
        set.filter((s) => s.lang === lang),
        extract,
      ),
    ]),
  ];
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  console.log(`\ncards: ${set.length} labelled statements, ${path} (${label})`);
  console.log(
    "| set | statements | with expected cards | coverage (≥1 card) | coverage of card-bearing | precision | recall | no-card statements given a card |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [name, s] of rows) {
    console.log(
      `| ${name} | ${s.statements} | ${s.cardBearing} | ${pct(s.coverage)} | ${pct(s.coverageOfCardBearing)} | ${pct(s.precision)} (${s.correct}/${s.extracted}) | ${pct(s.recall)} (${s.correct}/${s.expected}) | ${s.falsePositiveStatements} of ${s.statements - s.cardBearing} |`,
    );
  }
  const all = rows[0][1];
  console.log(`seed 003 coverage target > ${pct(COVERAGE_TARGET)}: ${all.coverage > COVERAGE_TARGET ? "met" : "NOT met"}`);
  if (process.argv.includes("--misses")) {
    for (const s of set) {
      const got = extract(s.text);
      const key = (c) => `${c.slot}=${c.value.toLowerCase()}${c.retracts ? "!" : ""}`;
      const want = s.cards.map(key).sort().join("; ");
      const have = got.map(key).sort().join("; ");
      if (want !== have) console.log(`  ${s.id} ${s.text}\n      expected: ${want || "-"}\n      got:      ${have || "-"}`);
    }
  }
  return all;
}
