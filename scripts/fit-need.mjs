// `npm run fit:need -- [--heldout] [--folds 5] [--before <commit>] [--dry-run]`
//
// Information need or not (src/core/text/need.ts), fitted and measured on labelled prompts
// ({ text, need, form, lang }; forms: question, problem, request_info, title | chatter, command,
// code, greeting):
//   dev       bench/data/prompts.dev.jsonl, written for building the features, and
//             bench/data/prompts.heldout.jsonl, prompts.heldout2.jsonl and prompts.heldout3.jsonl, each
//             written blind by another hand, measured once, then looked at: the model is fitted on all
//             four with k-fold cross-validation (each prompt scored by the folds that did not see it);
//   held out  bench/data/prompts.heldout4.jsonl (--heldout only): written blind by another hand while
//             round 4's features were built, never fitted on: scored by the model fitted on every dev prompt.
// The level of P(need) below which a prompt is "not a need" is the highest at which the
// cross-validated precision of "not a need" stays at 0.98 or above (a swallowed question costs more
// than a needless lookup). BEFORE is the decision shipped at --before (isQuestion under seed 000's
// trivial floor). Writes docs/reports/need.md, results/need/report.json and, unless --dry-run,
// src/core/text/tables/need-model.json (the model fitted on every dev prompt).
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { importTs } from "../bench/support/bundle.mjs";
import { machineLine, when } from "../bench/support/report.mjs";
import { commit, machine } from "../bench/support/stats.mjs";
import { entryAt } from "./decisions-before.mjs";
import { readJsonl } from "./pair-sets.mjs";

const { values } = parseArgs({
  options: {
    heldout: { type: "boolean", default: false },
    folds: { type: "string", default: "5" },
    before: { type: "string", default: "50094aa" },
    "dry-run": { type: "boolean", default: false },
  },
});
const TARGET_NOT_NEED_PRECISION = 0.98;
const k = Number(values.folds);
const lib = await importTs(new URL("./entries/need.ts", import.meta.url));
const fitLib = await importTs(new URL("../src/core/calibration/fit.ts", import.meta.url));
const beforeIsQuestion = (await entryAt(values.before, "src/core/text/is-question.ts", "isQuestion")).isQuestion;
const beforeClassify = (await entryAt(values.before, "src/core/text/classify.ts", "classifyQuery")).classifyQuery;
const before = (text) => beforeClassify(text).class !== "trivial" && beforeIsQuestion(text);

// Earlier held-out sets were looked at after their first measure (their misses shaped rounds 2 to 4): they are fitted on now.
const dev = [
  "bench/data/prompts.dev.jsonl",
  "bench/data/prompts.heldout.jsonl",
  "bench/data/prompts.heldout2.jsonl",
  "bench/data/prompts.heldout3.jsonl",
].flatMap((file) => readJsonl(".", file));
const heldout = values.heldout ? readJsonl(".", "bench/data/prompts.heldout4.jsonl") : [];
const vector = (text) => {
  const x = lib.needFeatures(text);
  return lib.NEED_FEATURES.map((f) => x[f]);
};
const floored = (text) => lib.informationNeed(text, { weights: lib.NEED_FEATURES.map(() => 0), bias: 0, notNeedBelow: 0 }).p === 0;
const rowsOf = (set) => set.map((p) => ({ ...p, x: vector(p.text), y: p.need ? 1 : 0, floor: floored(p.text) }));
const devRows = rowsOf(dev);
const heldRows = rowsOf(heldout);

// Balanced classes: each class weighs as much in the fit whatever its count.
const fit = (rows) => {
  const above = rows.filter((r) => !r.floor);
  const needs = above.filter((r) => r.y === 1).length;
  const weight = (r) => (r.y === 1 ? above.length / (2 * needs) : above.length / (2 * (above.length - needs)));
  return lib.fitLogisticVectors(
    above.map((r) => ({ x: r.x, y: r.y, w: weight(r) })),
    { l2: 0.05 },
  );
};
const pOf = (model, r) => (r.floor ? 0 : 1 / (1 + Math.exp(-r.x.reduce((s, v, i) => s + v * model.weights[i], model.bias))));

// Out-of-fold P(need) for every dev prompt.
const oof = new Map();
const foldModels = [];
for (let f = 0; f < k; f++) {
  const train = devRows.filter((r) => fitLib.foldOf(r.text, k) !== f);
  const model = fit(train);
  foldModels.push(model);
  for (const r of devRows.filter((r) => fitLib.foldOf(r.text, k) === f)) oof.set(r, pOf(model, r));
}

/** The highest level whose "not a need" decisions are precise enough, on out-of-fold P. */
function pickThreshold(rows, p) {
  const candidates = [...new Set(rows.map((r) => p(r)))].sort((a, b) => a - b);
  let best = 0;
  for (const t of [...candidates.map((c) => c + 1e-9), 1]) {
    const said = rows.filter((r) => p(r) < t);
    const right = said.filter((r) => r.y === 0).length;
    if (said.length > 0 && right / said.length >= TARGET_NOT_NEED_PRECISION) best = t;
  }
  return Math.round(best * 1e4) / 1e4;
}
// The floor's own decisions are seed 000's, not the model's: the level is chosen above it.
const notNeedBelow = pickThreshold(
  devRows.filter((r) => !r.floor),
  (r) => oof.get(r),
);
const shipped = { ...fit(devRows), notNeedBelow };

function measure(rows, decide) {
  const said = rows.map((r) => ({ r, need: decide(r) }));
  const right = said.filter((s) => s.need === (s.r.y === 1)).length;
  const notNeed = said.filter((s) => !s.need);
  const needs = said.filter((s) => s.r.y === 1);
  return {
    n: rows.length,
    accuracy: right / rows.length,
    notNeedPrecision: notNeed.length ? notNeed.filter((s) => s.r.y === 0).length / notNeed.length : null,
    needRecall: needs.length ? needs.filter((s) => s.need).length / needs.length : null,
    swallowed: needs.filter((s) => !s.need).length,
  };
}
const interval = (rows, decide, key) =>
  fitLib.bootstrap(rows, (sample) => measure(sample, decide)[key] ?? 0, { samples: 500, group: (r) => r.text });

const deciders = {
  before: (r) => before(r.text),
  after: { dev: (r) => oof.get(r) >= notNeedBelow, heldout: (r) => pOf(shipped, r) >= notNeedBelow },
};
const sets = [["dev (cross-validated)", devRows, "dev"], ...(heldRows.length ? [["held out (blind)", heldRows, "heldout"]] : [])];
const table = [];
for (const [name, rows, key] of sets) {
  for (const whenName of ["before", "after"]) {
    const decide = whenName === "before" ? deciders.before : deciders.after[key];
    const m = measure(rows, decide);
    table.push({
      set: name,
      when: whenName,
      ...m,
      accuracyInterval: interval(rows, decide, "accuracy"),
      byForm: Object.fromEntries(
        [...new Set(rows.map((r) => r.form))].map((form) => {
          const of = rows.filter((r) => r.form === form);
          return [form, `${of.filter((r) => decide(r) === (r.y === 1)).length}/${of.length}`];
        }),
      ),
      byLang: Object.fromEntries(
        [...new Set(rows.map((r) => r.lang))].map((lang) => [
          lang,
          measure(
            rows.filter((r) => r.lang === lang),
            decide,
          ).accuracy,
        ]),
      ),
      wrong: rows.filter((r) => decide(r) !== (r.y === 1)).map((r) => ({ text: r.text, form: r.form, lang: r.lang })),
    });
  }
}

const f3 = (x) => (x === null || x === undefined ? "–" : x.toFixed(3));
const forms = ["question", "problem", "request_info", "title", "chatter", "command", "code", "greeting"];
const lines = [
  "# Information need or not: before and after",
  "",
  "<!-- Generated by `npm run fit:need` (scripts/fit-need.mjs): do not edit by hand. -->",
  "",
  `Made by \`npm run fit:need${values.heldout ? " -- --heldout" : ""}\` on ${when(new Date().toISOString())}, at commit \`${commit()}\`, on ${machineLine(machine())}. ${k}-fold cross-validation on the dev prompts; the held-out prompts were written blind by another hand and are never fitted on. Before: the decision shipped at \`${values.before}\` (isQuestion under seed 000's trivial floor). After: src/core/text/need.ts, "not a need" below P(need) ${notNeedBelow}, the level that keeps the cross-validated precision of "not a need" at ${TARGET_NOT_NEED_PRECISION} or above.`,
  "",
  '| set | when | prompts | accuracy [95 % interval] | precision of "not a need" | needs found | needs swallowed |',
  "|---|---|---|---|---|---|---|",
  ...table.map(
    (r) =>
      `| ${r.set} | ${r.when} | ${r.n} | ${f3(r.accuracy)} [${f3(r.accuracyInterval[0])}, ${f3(r.accuracyInterval[1])}] | ${f3(r.notNeedPrecision)} | ${f3(r.needRecall)} | ${r.swallowed} |`,
  ),
  "",
  "Right by form (need: question, problem, request_info, title; not a need: chatter, command, code, greeting) and accuracy by language:",
  "",
  `| set | when | ${forms.join(" | ")} | by language |`,
  `|---|---|${forms.map(() => "---|").join("")}---|`,
  ...table.map(
    (r) =>
      `| ${r.set} | ${r.when} | ${forms.map((f) => r.byForm[f] ?? "–").join(" | ")} | ${Object.entries(r.byLang)
        .map(([lang, a]) => `${lang} ${f3(a)}`)
        .join(", ")} |`,
  ),
  "",
  `The model (weights over src/core/text/need-features.ts's features): ${lib.NEED_FEATURES.map((f, i) => `${f} ${shipped.weights[i]}`).join(", ")}, bias ${shipped.bias}; per fold: ${foldModels.map((m) => m.weights.map((w) => w.toFixed(2)).join(" ")).join(" · ")}.`,
  "",
  `Prompts decided wrongly after: ${table
    .filter((r) => r.when === "after")
    .map((r) => `${r.set} ${r.wrong.length}`)
    .join(", ")}, listed with their texts in results/need/report.json.`,
];
mkdirSync("results/need", { recursive: true });
writeFileSync("docs/reports/need.md", lines.join("\n") + "\n");
writeFileSync("results/need/report.json", JSON.stringify({ commit: commit(), notNeedBelow, shipped, table }, null, 2) + "\n");
if (!values["dry-run"])
  writeFileSync(
    "src/core/text/tables/need-model.json",
    JSON.stringify(
      { fittedOn: `bench/data/prompts.dev.jsonl + prompts.heldout.jsonl + heldout2 + heldout3 (${dev.length} prompts)`, ...shipped },
      null,
      2,
    ) + "\n",
  );
for (const r of table)
  console.log(`${r.set} ${r.when}: accuracy ${f3(r.accuracy)}, not-a-need precision ${f3(r.notNeedPrecision)}, swallowed ${r.swallowed}`);
console.log(
  `wrote docs/reports/need.md and results/need/report.json${values["dry-run"] ? "" : " and src/core/text/tables/need-model.json"}`,
);
