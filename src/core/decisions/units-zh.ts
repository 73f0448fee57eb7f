/**
 * The units of a run of Chinese characters (units.ts reads the rest): numbers as digits, the words
 * jieba's dictionary cuts (segment-zh.ts), small words and frames by their meaning.
 */
import { segmentChinese } from "../text/segment-zh";
import type { SmallGroup, Unit } from "./unit";

/** A run of Chinese characters as units: its numbers, then its words and frames. */
export function chineseUnits(run: string): Omit<Unit, "at">[] {
  return run
    .split(ZH_NUMBER)
    .flatMap((part, i) => (i % 2 === 1 ? [{ text: part, key: chineseNumber(part), kind: "number" as const }] : wordsAndFrames(part)));
}

const ZH_SMALL: Readonly<Record<string, { key: string; group: SmallGroup }>> = Object.fromEntries(
  (
    [
      ["之前 以前 前", "time:before"],
      ["之后 以后 后", "time:after"],
      ["这 这个 本 当前 现在 目前", "period:this"],
      ["上 上次 上个 之前的 去年", "period:last"],
      ["下 下次 下个 明年", "period:next"],
      ["今天", "period:today"],
      ["昨天", "period:yesterday"],
      ["明天", "period:tomorrow"],
      ["最多 最大 最高 最 最好", "degree:most"],
      ["最少 最小 最低 最差", "degree:least"],
      ["更多 更 多于 超过 以上", "degree:more"],
      ["更少 少于 以下 不到", "degree:less"],
      ["我 我的 自己", "owner:my"],
      ["我们 我们的", "owner:our"],
      ["你 你的 您 您的", "owner:your"],
      ["他 他的 她 她的 他们 别人 其他人 同事", "owner:someone"],
      ["不 没 没有 别 无法 不能 不了 未", "negation:not"],
      ["只 只有 仅 仅仅", "restriction:only"],
      ["多久 多长时间 几天 什么时候 何时 多长", "asked_for:time"],
      ["多少钱 价格 费用", "asked_for:amount"],
      ["几个 多少", "asked_for:count"],
      ["哪里 哪儿 在哪 在哪里 哪", "asked_for:place"],
      ["谁", "asked_for:person"],
      ["为什么 为啥 怎么会", "asked_for:reason"],
    ] as const
  ).flatMap(([words, key]) => words.split(" ").map((w) => [w, { key, group: key.split(":")[0] as SmallGroup }])),
);
const ZH_FRAMES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ["怎么 如何 怎样 咋 怎么样 怎么办 如何才能 怎么才能 怎么弄 怎么操作 方法", "how"],
    ["能不能 可以 能否 是否 可不可以 能 可", "can"],
    ["什么 哪个 哪些 啥", "what"],
  ].flatMap(([words, key]) => words!.split(" ").map((w) => [w, key!])),
);
const ZH_IGNORED = new Set(
  "的 了 吗 呢 吧 啊 呀 嘛 哦 么 是 在 有 和 与 或 也 都 就 还 又 才 很 太 把 被 给 让 对 要 想 请问 请 一下 一个 个 得 地 着 过 需要 应该".split(
    " ",
  ),
);

/** Chinese question frames that a segmenter would cut into a negation (能不能 → 能 / 不能). */
const ZH_FRAME_PHRASES = /能不能|可不可以|是不是|有没有|能否/gu;

/**
 * A Chinese number (一百, 两千, 二十五) or a single numeral before a measure word (七天, 两次): read as
 * its digits, as "100" and "7天" are. A single numeral elsewhere is part of a word (一般, 一下).
 */
const ZH_NUMBER =
  /([零〇一二两三四五六七八九十百千万]{2,}|[零〇一二两三四五六七八九十百千万](?=天|年|月|日|周|星期|次|个|元|块|分钟|秒|小时|岁|张|件|台|本|位|种|倍|斤|公斤|米|公里|人|家|条|只))/u;
const ZH_DIGITS: Readonly<Record<string, number>> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_POWERS: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000, 万: 10000 };

function chineseNumber(numeral: string): string {
  let total = 0;
  let section = 0;
  let digit = 0;
  for (const ch of numeral) {
    const power = ZH_POWERS[ch];
    if (power === undefined) digit = ZH_DIGITS[ch]!;
    else if (power === 10000) {
      total += (section + digit) * power;
      section = digit = 0;
    } else {
      section += (digit || 1) * power;
      digit = 0;
    }
  }
  return String(total + section + digit);
}

function wordsAndFrames(run: string): Omit<Unit, "at">[] {
  return run
    .split(ZH_FRAME_PHRASES)
    .flatMap((part, i) => [
      ...(i > 0 ? [{ text: "能不能", key: "can", kind: "frame" as const }] : []),
      ...segmentChinese(part).flatMap(chineseUnit),
    ]);
}

function chineseUnit(word: string): Omit<Unit, "at">[] {
  if (ZH_IGNORED.has(word)) return [];
  const small = ZH_SMALL[word];
  if (small) return [{ text: word, key: small.key, kind: "small", group: small.group }];
  const frame = ZH_FRAMES[word];
  if (frame) return [{ text: word, key: frame, kind: "frame" }];
  return [{ text: word, key: word, kind: "content" }];
}
