/**
 * Words too common to say what a text is about. Removed from search queries only (documents
 * keep them: BM25's idf already discounts them there).
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below
  between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
  few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself
  him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most
  mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't
  she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then
  there there's these they they'd they'll they're they've this those through to too under until up very was
  wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom
  why why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves`.split(/\s+/),
);

/**
 * Chinese stopwords: the seed's question words, particles and copulas, plus common function
 * words. Pronouns (我, 你) stay: "我是什么用户" is about *me*.
 */
export const CHINESE_STOPWORDS: readonly string[] = [
  // seed 003: question words
  "什么时候",
  "为什么",
  "什么",
  "怎么",
  "如何",
  "哪里",
  "哪个",
  "多少",
  "谁",
  "咋",
  // seed 003: particles and copulas
  "的",
  "了",
  "吗",
  "呢",
  "吧",
  "啊",
  "是",
  "有",
  "在",
  // extended: more question words, particles, conjunctions, adverbs
  "怎样",
  "哪儿",
  "哪些",
  "哪",
  "么",
  "嘛",
  "呀",
  "哦",
  "哈",
  "着",
  "过",
  "地",
  "得",
  "和",
  "与",
  "及",
  "或",
  "或者",
  "而且",
  "但是",
  "因为",
  "所以",
  "如果",
  "就",
  "都",
  "也",
  "还",
  "又",
  "很",
  "太",
  "这个",
  "那个",
  "这些",
  "那些",
  "这",
  "那",
  "一个",
  "把",
  "被",
  "让",
  "给",
  "对",
  "从",
  "向",
  "请问",
  "请",
];

/**
 * Words that contain a stopword character but carry meaning, kept whole when a Chinese run is
 * cut at its stopwords (现在 must not lose its 在). Includes the seed's content words.
 */
export const CHINESE_CONTENT_WORDS: readonly string[] = [
  "用户",
  "玩机",
  "开发者",
  "学生",
  "工程师",
  "手机",
  "电脑",
  "安卓",
  "现在",
  "正在",
  "存在",
  "所在",
  "实在",
  "在线",
  "现有",
  "所有",
  "没有",
  "有效",
  "有用",
  "有关",
  "有限",
  "是否",
  "得到",
  "觉得",
  "记得",
  "值得",
  "目的",
  "的确",
  "了解",
  "为了",
  "对象",
  "对比",
  "还款",
  "还原",
  "地址",
  "地方",
  "地区",
  "过期",
];

export function isEnglishStopword(term: string): boolean {
  return ENGLISH_STOPWORDS.has(term);
}

const longestFirst = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length);
const STOPWORDS_LONGEST_FIRST = longestFirst(CHINESE_STOPWORDS);
const CONTENT_LONGEST_FIRST = longestFirst(CHINESE_CONTENT_WORDS);

/**
 * Cuts a Chinese run at its stopwords, left to right: a content word at the cursor is kept
 * whole, a stopword is dropped, anything else joins the current piece.
 * "我是什么用户" → ["我", "用户"]; "我现在在哪" → ["我现在"].
 */
export function splitAtChineseStopwords(run: string): string[] {
  const pieces: string[] = [];
  let piece = "";
  let i = 0;
  while (i < run.length) {
    const rest = run.slice(i);
    const content = CONTENT_LONGEST_FIRST.find((w) => rest.startsWith(w));
    if (content) {
      piece += content;
      i += content.length;
      continue;
    }
    const stop = STOPWORDS_LONGEST_FIRST.find((w) => rest.startsWith(w));
    if (stop) {
      if (piece) pieces.push(piece);
      piece = "";
      i += stop.length;
      continue;
    }
    const ch = String.fromCodePoint(run.codePointAt(i)!);
    piece += ch;
    i += ch.length;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
