/**
 * Chinese word segmentation as jieba does it without its HMM: every way to cut a run into words
 * of the dictionary (a DAG), then the route whose words are most probable together (the sum of
 * log frequencies, right to left). Characters outside the dictionary stand alone. The dictionary
 * is jieba's, cut to its common words (src/core/text/tables/zh-dict.json, scripts/build-zh-dict.mjs),
 * read on first use.
 */
import dictTable from "./tables/zh-dict.json";

interface Dictionary {
  log2Frequency: ReadonlyMap<string, number>;
  log2Total: number;
  longest: number;
}

let dictionary: Dictionary | null = null;

function chineseDictionary(): Dictionary {
  if (dictionary) return dictionary;
  const t = dictTable as { log2Total: number; words: string };
  const log2Frequency = new Map<string, number>();
  let longest = 1;
  for (const entry of t.words.split(" ")) {
    const m = /^(\D+)(\d+)$/u.exec(entry);
    if (!m) continue;
    log2Frequency.set(m[1]!, Number(m[2]));
    longest = Math.max(longest, [...m[1]!].length);
  }
  dictionary = { log2Frequency, log2Total: t.log2Total, longest };
  return dictionary;
}

/** The words of a run of Chinese characters, in order ("如何申请退款" → 如何 申请 退款). */
export function segmentChinese(run: string): string[] {
  const chars = Array.from(run);
  const n = chars.length;
  if (n <= 1) return chars;
  const { log2Frequency, log2Total, longest } = chineseDictionary();
  // best[i]: the most probable route's log2 probability from i to the end, and where its first word ends.
  const best: { score: number; end: number }[] = new Array(n + 1);
  best[n] = { score: 0, end: n };
  for (let i = n - 1; i >= 0; i--) {
    best[i] = { score: -Infinity, end: i + 1 };
    for (let j = i + 1; j <= Math.min(n, i + longest); j++) {
      const word = chars.slice(i, j).join("");
      const f = log2Frequency.get(word);
      if (f === undefined && j > i + 1) continue;
      const score = (f ?? 0) - log2Total + best[j]!.score;
      if (score > best[i]!.score) best[i] = { score, end: j };
    }
  }
  const words: string[] = [];
  for (let i = 0; i < n; i = best[i]!.end) words.push(chars.slice(i, best[i]!.end).join(""));
  return joinUnknownPairs(words);
}

/** Characters that are words of their own: particles, pronouns, measure words, copulas, negation, question words. */
const FUNCTION_CHARS = new Set(
  Array.from(
    "的了吗呢吧啊呀嘛哦么是在有和与或也都就还又才很太最更我你您他她它们这那哪谁啥咋怎个只把被给让从到对向为不没别无能会要可想该得地着过",
  ),
);

function joinUnknownPairs(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (w.length === 1 && next?.length === 1 && !FUNCTION_CHARS.has(w) && !FUNCTION_CHARS.has(next)) {
      out.push(w + next);
      i++;
    } else out.push(w);
  }
  return out;
}
