/**
 * expandVariants (seed 003, Phase 4: "用户" → "用户", "user"): a query term's singular/plural
 * form and its common English ↔ Chinese equivalent, so a Chinese question finds an English
 * statement and the reverse. The dictionary is deliberately small and hand-kept: words users
 * state about themselves and ask support about. FTS5's porter stemmer already folds most English
 * plurals in the index; the plural form is listed for the irregular ones and for callers of
 * /v1/query/analyze.
 */
import { CJK_CHAR } from "./cjk";

/** English (singular) ↔ Chinese. */
export const EN_ZH_EQUIVALENTS: readonly (readonly [string, string])[] = [
  ["user", "用户"],
  ["phone", "手机"],
  ["computer", "电脑"],
  ["laptop", "笔记本"],
  ["android", "安卓"],
  ["developer", "开发者"],
  ["engineer", "工程师"],
  ["student", "学生"],
  ["teacher", "老师"],
  ["doctor", "医生"],
  ["password", "密码"],
  ["account", "账号"],
  ["refund", "退款"],
  ["order", "订单"],
  ["address", "地址"],
  ["company", "公司"],
  ["battery", "电池"],
  ["price", "价格"],
  ["payment", "付款"],
  ["invoice", "发票"],
  ["email", "邮箱"],
  ["login", "登录"],
  ["error", "错误"],
  ["network", "网络"],
  ["subscription", "订阅"],
  ["delivery", "配送"],
  ["city", "城市"],
  ["music", "音乐"],
  ["game", "游戏"],
  ["coffee", "咖啡"],
];

const ZH_OF = new Map(EN_ZH_EQUIVALENTS.map(([en, zh]) => [en, zh]));
const EN_OF = new Map(EN_ZH_EQUIVALENTS.map(([en, zh]) => [zh, en]));
const PLAIN_WORD = /^[a-z]{3,}$/u;

/** The term first, then its other number, then its equivalent(s) in the other language; distinct. */
export function expandVariants(term: string): string[] {
  const lower = term.toLowerCase();
  const out = [lower];
  if (CJK_CHAR.test(lower)) {
    const found = [...EN_OF.keys()]
      .map((zh) => ({ zh, at: lower.indexOf(zh) }))
      .filter((f) => f.at >= 0)
      .sort((a, b) => a.at - b.at);
    out.push(...found.map((f) => EN_OF.get(f.zh)!));
  } else if (PLAIN_WORD.test(lower)) {
    const singular = singularOf(lower);
    out.push(singular === lower ? pluralOf(lower) : singular);
    const zh = ZH_OF.get(singular);
    if (zh) out.push(zh);
  }
  return [...new Set(out)];
}

function singularOf(word: string): string {
  if (/[^aeiou]ies$/u.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/u.test(word)) return word.slice(0, -2);
  if (/[^su]s$/u.test(word)) return word.slice(0, -1);
  return word;
}

function pluralOf(word: string): string {
  if (/[^aeiou]y$/u.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|ch|sh)$/u.test(word)) return `${word}es`;
  return `${word}s`;
}

/** The dictionary words inside a Chinese piece: where each starts (in characters), its length and its English. */
export function equivalentsInside(piece: string): { at: number; length: number; en: string }[] {
  const chars = Array.from(piece);
  const found: { at: number; length: number; en: string }[] = [];
  for (const [zh, en] of EN_OF) {
    const zhChars = Array.from(zh);
    for (let i = 0; i + zhChars.length <= chars.length; i++) {
      if (chars.slice(i, i + zhChars.length).join("") === zh) found.push({ at: i, length: zhChars.length, en });
    }
  }
  return found;
}
