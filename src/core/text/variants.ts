/**
 * expandVariants (seed 003, Phase 4: "用户" → "用户", "user"): a query term's singular/plural
 * form and its common English ↔ Chinese equivalent, so a Chinese question finds an English
 * statement and the reverse. The dictionary is deliberately small and hand-kept: words users
 * state about themselves and ask support about. FTS5's porter stemmer already folds most English
 * plurals in the index; the other number is listed for the irregular ones and for callers of
 * /v1/query/analyze, and only when the rules below are sure it is a word.
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

/*
 * Singular ↔ plural, only by rules that give real words: when a rule is unsure, the term gets no
 * other number (FTS5's porter stemmer folds regular plurals in the index anyway). Unsure means:
 * - a word that has no number: closed-class words and common adjectives (many → not "manies"),
 *   uncountable nouns (information, feedback), and words that only look plural (news, Kubernetes);
 * - an ending that marks a verb form, an adverb or an adjective (approved, changing, quickly,
 *   famous, useless, available), unless the word is a listed noun (need, setting, family, table);
 * - a Latin or Greek ending (analysis, status, Texas, menus): only the listed pairs, never a rule
 *   (Texas → "texa", analysis → "analysi" are not words).
 */
const words = (list: string) => new Set(list.trim().split(/\s+/u));

/** Words with no singular/plural pair. */
const NO_NUMBER = words(`
  many much several every either neither another enough plenty various certain whole least less
  yes maybe perhaps please thanks also even just still yet already always never often sometimes ever else soon later
  today tonight tomorrow yesterday now almost quite rather instead anyway together away back ago however therefore
  though although unless whether since without within upon across behind beyond toward towards via per versus thus plus
  new old good bad big small large little great high low long short fast slow easy hard free full empty open wrong right
  same different best better worse worst next last first second third latest main real true false sure ready happy
  busy simple clear dark hot cold warm cool nice fine safe secure private public local global remote online offline
  live dead quick late recent current previous final entire own pretty dirty tiny funny lucky sorry angry crazy hungry
  healthy noisy lazy messy tricky risky shiny handy fancy fuzzy buggy laggy flaky spicy salty sleepy dry shy heavy
  broken hidden written taken given chosen frozen stolen forgotten fallen gotten done gone seen known shown
  might must shall everyone someone anyone nobody everybody somebody anybody whatever whenever wherever whichever
  information software hardware firmware middleware malware feedback advice equipment furniture research knowledge
  homework luggage baggage traffic weather music stuff news data metadata evidence progress storage bandwidth spam
  help support health education electricity wifi internet cash rice bread milk logic
  series species means physics mathematics economics politics ethics analytics logistics robotics genetics electronics
  kubernetes postgres jenkins aws dns sms gps cors cms ios macos chaos kudos ethos cosmos goes
`);

/** Pairs no ending rule gives, singular first; they win over every rule below. */
const IRREGULAR: readonly (readonly [string, string])[] = [
  ["person", "people"],
  ["child", "children"],
  ["man", "men"],
  ["woman", "women"],
  ["foot", "feet"],
  ["tooth", "teeth"],
  ["mouse", "mice"],
  ["goose", "geese"],
  ["analysis", "analyses"],
  ["crisis", "crises"],
  ["thesis", "theses"],
  ["diagnosis", "diagnoses"],
  ["hypothesis", "hypotheses"],
  ["criterion", "criteria"],
  ["phenomenon", "phenomena"],
  ["status", "statuses"],
  ["bonus", "bonuses"],
  ["virus", "viruses"],
  ["campus", "campuses"],
  ["bus", "buses"],
  ["census", "censuses"],
  ["surplus", "surpluses"],
  ["alias", "aliases"],
  ["bias", "biases"],
  ["gas", "gases"],
  ["canvas", "canvases"],
  ["atlas", "atlases"],
  ["lens", "lenses"],
  ["quiz", "quizzes"],
  ["knife", "knives"],
  ["wife", "wives"],
  ["life", "lives"],
  ["half", "halves"],
  ["shelf", "shelves"],
  ["wolf", "wolves"],
  ["self", "selves"],
  ["thief", "thieves"],
  ["potato", "potatoes"],
  ["tomato", "tomatoes"],
  ["hero", "heroes"],
  ["echo", "echoes"],
  ["cache", "caches"],
  ["niche", "niches"],
  ["headache", "headaches"],
  ["ache", "aches"],
  ["stomach", "stomachs"],
  ["epoch", "epochs"],
  ["tech", "techs"],
  ["movie", "movies"],
  ["cookie", "cookies"],
  ["calorie", "calories"],
  ["zombie", "zombies"],
  ["selfie", "selfies"],
  ["rookie", "rookies"],
  ["hoodie", "hoodies"],
  ["smoothie", "smoothies"],
  ["brownie", "brownies"],
  ["newbie", "newbies"],
  ["tie", "ties"],
  ["lie", "lies"],
  ["pie", "pies"],
];
const PLURAL_OF = new Map(IRREGULAR);
const SINGULAR_OF = new Map(IRREGULAR.map(([one, many]) => [many, one]));

/** Nouns with an ending the rules below read as "not a noun" (-ed, -ing, -ly, -able), or as Latin (-as, -is, -us). */
const LISTED_NOUNS = words(`
  hundred bed shed sled need speed seed feed breed weed
  setting meeting booking listing rating building warning heading recording wedding sibling morning evening painting
  drawing feeling finding ending opening posting offering saving earning holding ceiling
  family reply supply assembly anomaly ally rally butterfly lily monopoly jelly belly bully
  table cable variable vegetable deliverable timetable syllable
  idea area sea tea pea plea schema quota formula camera agenda persona banana pizza sofa visa villa cinema comma
  dilemma drama replica saga umbrella diploma era opera arena antenna lambda
  api uri emoji taxi wiki ski kiwi cli gui kpi safari alibi menu guru haiku emu tutu sudoku cpu gpu sku
`);
/** Endings of words that are not count nouns: verb forms, adverbs, adjectives. */
const NOT_A_NOUN = /(?:[^e]ed|[aeiouy][^aeiouy]*ing|[^p]ly|ous|ful|less|able|ible)$/u;
/** Endings whose plural (or singular) only a listed pair may give. */
const LATIN_ENDING = /(?:[aiu]s)$/u;

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
    const other = singular ?? pluralOf(lower);
    if (other) out.push(other);
    const zh = ZH_OF.get(singular ?? lower);
    if (zh) out.push(zh);
  }
  return [...new Set(out)];
}

/** The singular of a plural, or null when the word is not (surely) one. */
function singularOf(word: string): string | null {
  const irregular = SINGULAR_OF.get(word);
  if (irregular) return irregular;
  if (NO_NUMBER.has(word) || PLURAL_OF.has(word) || !word.endsWith("s") || word.endsWith("ss")) return null;
  const stem = word.slice(0, -1);
  if (LATIN_ENDING.test(word)) return LISTED_NOUNS.has(stem) ? stem : null;
  if (/[^aeiou]ies$/u.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh|zz)es$/u.test(word)) return word.slice(0, -2);
  return stem;
}

/** The plural of a singular noun, or null when the word may not be one. */
function pluralOf(word: string): string | null {
  const irregular = PLURAL_OF.get(word);
  if (irregular) return irregular;
  if (NO_NUMBER.has(word)) return null;
  if (!LISTED_NOUNS.has(word) && (NOT_A_NOUN.test(word) || /(?:[aiu]s|is)$/u.test(word))) return null;
  if (/[^aeiou]y$/u.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|ch|sh|z)$/u.test(word)) return `${word}es`;
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
