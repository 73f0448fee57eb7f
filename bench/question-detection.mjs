// `node bench/question-detection.mjs [--data ../shared/data] [--misses]`: how often isQuestion
// (src/core/text/is-question.ts) says "question" on labelled text. Questions: the queries of stackfaq
// (its misses shaped the rules) and semeval2016-cqa (held out); statements: the card sets'
// statements about the user (bench/data/cards.*.jsonl), where a false "question" would also cost
// a card (src/core/text/cards.ts skips questions). Saves results/question-detection.json.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { importTs } from "./support/bundle.mjs";
import { saveResults } from "./support/stats.mjs";

const argv = process.argv.slice(2);
const dataAt = argv.indexOf("--data");
const data = resolve(dataAt >= 0 ? argv[dataAt + 1] : new URL("../../shared/data", import.meta.url).pathname);
const { isQuestion } = await importTs(new URL("../src/core/text/is-question.ts", import.meta.url));
const jsonl = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));

const sets = [
  { set: "stackfaq queries", label: "question", texts: jsonl(`${data}/stackfaq/queries.jsonl`).map((q) => q.text) },
  {
    set: "semeval2016-cqa queries (held out)",
    label: "question",
    texts: jsonl(`${data}/semeval2016-cqa/queries.jsonl`).map((q) => q.text),
  },
  {
    set: "card statements",
    label: "statement",
    texts: ["cards.labelled", "cards.heldout", "cards.heldout2"].flatMap((name) =>
      jsonl(new URL(`./data/${name}.jsonl`, import.meta.url).pathname).map((c) => c.text),
    ),
  },
];
const rows = sets.map(({ set, label, texts }) => {
  const saidQuestion = texts.filter((t) => isQuestion(t));
  const wrong = label === "question" ? texts.filter((t) => !isQuestion(t)) : saidQuestion;
  if (argv.includes("--misses")) for (const t of wrong) console.log(`  ${set}: ${t.replace(/\s+/g, " ").slice(0, 120)}`);
  return { set, label, n: texts.length, saidQuestion: saidQuestion.length, share: saidQuestion.length / texts.length };
});
console.log("| set | label | texts | said “question” | share |\n|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.set} | ${r.label} | ${r.n} | ${r.saidQuestion} | ${(100 * r.share).toFixed(1)}% |`);
console.log(`figures in ${saveResults("question-detection", { rows })}`);
