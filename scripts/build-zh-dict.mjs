// `node scripts/build-zh-dict.mjs`: the Chinese dictionary of the word segmenter
// (src/core/text/segment-zh.ts), cut from jieba's dictionary (dict.txt.big, as the jieba-js package
// ships it). jieba segments by the most probable route through the words of a dictionary with
// frequencies; the Worker keeps the words used at least MIN_FREQUENCY times (the rest are rare
// names and terms that split into known words anyway) and every single character, so each
// sentence has a route. Frequencies are kept as whole numbers; the segmenter takes their logs.
// Writes src/core/text/tables/zh-dict.json (committed: the build needs no network).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const source = path.join(path.dirname(require.resolve("jieba-js/package.json")), "dict", "dict.txt.big");
const MIN_WORD_FREQUENCY = 600;
const MIN_CHAR_FREQUENCY = 100;
const HAN = /^\p{Script=Han}+$/u;

let total = 0;
const kept = [];
for (const line of readFileSync(source, "utf8").split("\n")) {
  const [word, count] = line.trim().split(" ");
  const frequency = Number(count);
  if (!word || !Number.isFinite(frequency)) continue;
  total += frequency;
  const min = [...word].length === 1 ? MIN_CHAR_FREQUENCY : MIN_WORD_FREQUENCY;
  if (HAN.test(word) && frequency >= min) kept.push(`${word}${Math.round(Math.log2(frequency))}`);
}
const table = { source: "jieba dict.txt.big (jieba-js 1.0.2)", log2Total: Math.log2(total), words: kept.join(" ") };
writeFileSync(new URL("../src/core/text/tables/zh-dict.json", import.meta.url), JSON.stringify(table) + "\n");
console.log(`zh-dict.json: ${kept.length} words of ${total} occurrences`);
