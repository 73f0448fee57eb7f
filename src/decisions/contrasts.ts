/**
 * What differs between two questions in a way a cosine cannot see: the words that make two
 * questions on one topic into two questions. Each finder is pure and reads only the two texts.
 *
 * - codes and numbers: E500 / E501, PO-12345 / PO-12346, Windows 10 / 11 (compared by their digits,
 *   so "E500" and "error 500" agree);
 * - opposite actions: enable / disable, import / export, 开启 / 关闭 … (OPPOSITES);
 * - different named things of one kind: Python / Node.js, Slack / Teams, Pro / Team plan, annual /
 *   monthly, iOS / Android … (NAMED_KINDS);
 * - negation on one side only: "Can I …" / "Why can't I …", "share" / "stop sharing";
 * - a different asked-for slot: "how long" / "how much", "where" / "who" (ASKED_FOR);
 * - one word swapped in a shared frame: "How do I rename a branch in git?" / "How do I delete a
 *   branch in git?", or the same words in another order ("from the backlog to the sprint" / "from the
 *   sprint to the backlog"). On Recall's labelled pairs this is the commonest hard negative the others miss, and
 *   rewordings seldom keep the frame while changing exactly one word (`npm run decisions`).
 *
 * A contrast is found only when each side holds something the other lacks (E500 on one side and
 * E501 on the other), or, for negation, one side negates and the other does not: a side that
 * merely says less ("the error" / "error E500") is no contrast.
 */
import { lexicalTerms } from "../ranking/lexical";
import { repeatTerms } from "../ranking/repeat";
import { detectQuestionType } from "../text/question-type";

export const CONTRAST_KINDS = ["code", "opposite_action", "named_thing", "negation", "asked_for", "question_type", "swapped_word"] as const;
export type ContrastKind = (typeof CONTRAST_KINDS)[number];

/**
 * Contrasts that make two questions different questions: another code, the opposite action,
 * another named thing. The others (negation, the slot asked for, a swapped word) rule out a sure
 * `same` but may be a rewording ("I can't remember my password" / "How do I reset my password?").
 */
export const DECISIVE_CONTRASTS: ReadonlySet<ContrastKind> = new Set(["code", "opposite_action", "named_thing"]);

export interface Contrast {
  kind: ContrastKind;
  /** What a person reads: "E500 ≠ E501". */
  detail: string;
}

/** Pairs of opposite actions and states, English word forms and Chinese words (a pole is a list of forms). */
export const OPPOSITES: readonly (readonly [readonly string[], readonly string[]])[] = [
  [verb("add"), [...verb("remove"), ...verb("delete")]],
  [
    [...verb("enable"), "turn on", "switch on", "activate", "activated"],
    [...verb("disable"), "turn off", "switch off", "deactivate", "deactivated"],
  ],
  [verb("import"), verb("export")],
  [verb("upgrade"), verb("downgrade")],
  [[...verb("open"), "reopen"], verb("close")],
  [verb("start"), verb("stop")],
  [verb("show"), verb("hide")],
  [verb("lock"), verb("unlock")],
  [verb("subscribe"), [...verb("unsubscribe"), "cancel my subscription"]],
  [verb("install"), verb("uninstall")],
  [
    ["log in", "login", "logging in", "sign in", "signing in", "signin"],
    ["log out", "logout", "logging out", "sign out", "signing out", "signout"],
  ],
  [verb("upload"), verb("download")],
  [verb("increase"), verb("decrease")],
  [verb("encrypt"), verb("decrypt")],
  [verb("connect"), verb("disconnect")],
  [verb("archive"), verb("unarchive")],
  [verb("mute"), verb("unmute")],
  [verb("follow"), verb("unfollow")],
  [verb("block"), verb("unblock")],
  [verb("link"), verb("unlink")],
  [verb("pin"), verb("unpin")],
  [verb("publish"), verb("unpublish")],
  [verb("merge"), verb("split")],
  [verb("include"), verb("exclude")],
  [verb("allow"), verb("deny")],
  [verb("buy"), verb("sell")],
  [verb("send"), verb("receive")],
  [verb("compress"), verb("decompress")],
  [verb("zip"), verb("unzip")],
  [["before"], ["after"]],
  [
    ["minimum", "min"],
    ["maximum", "max"],
  ],
  [
    ["开启", "打开", "启用", "开通"],
    ["关闭", "禁用", "停用", "关掉"],
  ],
  [
    ["添加", "增加", "新增"],
    ["删除", "移除", "减少"],
  ],
  [["导入"], ["导出"]],
  [["升级"], ["降级"]],
  [["上传"], ["下载"]],
  [
    ["登录", "登陆"],
    ["退出登录", "登出", "注销"],
  ],
  [["绑定"], ["解绑", "解除绑定"]],
  [["锁定"], ["解锁"]],
  [["订阅"], ["退订", "取消订阅"]],
  [["显示"], ["隐藏"]],
  [["收到", "接收"], ["发送"]],
  [["购买"], ["出售"]],
];

/** Kinds of named things of which a question is about one: two different ones make two questions. */
export const NAMED_KINDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  language: [
    ["python"],
    ["node.js", "nodejs", "node", "javascript"],
    ["java"],
    ["ruby"],
    ["golang"],
    ["rust"],
    ["php"],
    ["c #", "csharp", "dotnet"],
    ["swift"],
    ["kotlin"],
    ["typescript"],
  ],
  "package manager": [["npm"], ["pnpm"], ["yarn"], ["bun"], ["pip"], ["poetry"]],
  platform: [["ios", "iphone", "ipad"], ["android"], ["windows"], ["macos", "mac"], ["linux", "ubuntu"]],
  browser: [["chrome"], ["firefox"], ["safari"], ["microsoft edge"]],
  "chat tool": [["slack"], ["teams", "microsoft teams"], ["discord"], ["zoom"], ["google meet"], ["whatsapp"], ["telegram"]],
  helpdesk: [["zendesk"], ["intercom"], ["freshdesk"], ["help scout", "helpscout"]],
  cloud: [["aws", "amazon web services"], ["gcp", "google cloud"], ["azure"], ["vercel"], ["netlify"], ["heroku"], ["cloudflare"]],
  plan: [["free plan", "free tier"], ["pro plan", "pro"], ["team plan"], ["enterprise"], ["business plan"], ["basic plan"], ["premium"]],
  period: [
    ["annual", "annually", "yearly", "per year", "a year"],
    ["monthly", "per month", "a month"],
    ["weekly", "per week"],
    ["daily", "per day"],
  ],
  payment: [
    ["paypal"],
    ["credit card", "debit card", "card"],
    ["apple pay"],
    ["google pay"],
    ["bank transfer", "wire transfer", "invoice"],
  ],
  "file format": [["csv"], ["json"], ["xml"], ["pdf"], ["excel", "xlsx"], ["yaml"]],
  database: [["postgres", "postgresql"], ["mysql"], ["sqlite"], ["mongodb", "mongo"], ["redis"]],
  test: [["vitest"], ["jest"], ["mocha"], ["playwright"], ["cypress"]],
  carrier: [["ups"], ["fedex"], ["dhl"], ["usps"]],
  平台: [["苹果", "ios"], ["安卓"]],
  支付: [["支付宝"], ["微信支付", "微信"], ["银行卡"], ["信用卡"]],
  周期: [
    ["年付", "包年", "每年"],
    ["月付", "包月", "每月"],
  ],
};

/** The slot a question asks to be filled; two different slots ask two things (when ≈ how long: both ask for a time). */
export const ASKED_FOR: readonly (readonly [slot: string, pattern: RegExp])[] = [
  [
    "time",
    / (how long|when|what time|how soon|how much time|how many (minutes|hours|days|weeks|months|years)) |多久|多长时间|什么时候|何时|几天/u,
  ],
  ["amount", / (how much|what does it cost) |多少钱/u],
  ["count", / how many |多少个|几个/u],
  ["place", / where |哪里|在哪/u],
  ["person", / who |谁/u],
  ["reason", / why |为什么|为啥/u],
];

const NEGATION =
  / (not|no|never|without|cannot|can't|cant|won't|don't|doesn't|didn't|isn't|aren't|wasn't|shouldn't|couldn't|stop|cancel) |不|没|别|无法|取消/u;
const ANY_DIGIT = /\d/;
const TOKEN = /[\p{L}\p{N}]+(?:[-_.'/][\p{L}\p{N}]+)*|#/gu;

/** Every contrast between the two texts, in a fixed order (codes first: the plainest to read). */
export function findContrasts(a: string, b: string): Contrast[] {
  const ta = prepare(a);
  const tb = prepare(b);
  const difference = wordDifference(a, b);
  const found = [
    ...codeContrasts(ta, tb),
    ...oppositeContrasts(ta, tb),
    ...namedContrasts(ta, tb),
    ...negationContrasts(ta, tb, difference),
    ...askedForContrasts(ta, tb),
    ...questionTypeContrasts(a, b),
  ];
  // A swapped word another contrast already names ("e500 ≠ e501") says nothing new.
  return found.length > 0 ? found : swappedWordContrasts(ta, tb, difference);
}

interface Prepared {
  /** Lower-cased, NFKC, whitespace folded, with spaces at both ends so " form " finds whole words. */
  padded: string;
  tokens: string[];
}

function prepare(text: string): Prepared {
  const lower = text.normalize("NFKC").toLowerCase().replace(/[’`]/g, "'");
  const tokens = [...lower.matchAll(TOKEN)].map((m) => m[0]);
  return { padded: ` ${tokens.join(" ")} `, tokens };
}

/** Codes and numbers, compared by their digits: "PO-12345" → 12345. */
function codeContrasts(a: Prepared, b: Prepared): Contrast[] {
  const codes = (p: Prepared) => {
    const byDigits = new Map<string, string>();
    for (const token of p.tokens) if (ANY_DIGIT.test(token)) byDigits.set(token.match(/\d+/g)!.join("."), token);
    return byDigits;
  };
  const ca = codes(a);
  const cb = codes(b);
  const onlyA = [...ca].filter(([digits]) => !cb.has(digits)).map(([, token]) => token);
  const onlyB = [...cb].filter(([digits]) => !ca.has(digits)).map(([, token]) => token);
  return onlyA.length > 0 && onlyB.length > 0 ? [{ kind: "code", detail: `${onlyA.join(", ")} ≠ ${onlyB.join(", ")}` }] : [];
}

function oppositeContrasts(a: Prepared, b: Prepared): Contrast[] {
  const found: Contrast[] = [];
  for (const [first, second] of OPPOSITES) {
    const a1 = firstForm(a, first);
    const a2 = firstForm(a, second);
    const b1 = firstForm(b, first);
    const b2 = firstForm(b, second);
    if (a1 && !a2 && b2 && !b1) found.push({ kind: "opposite_action", detail: `${a1} ≠ ${b2}` });
    else if (a2 && !a1 && b1 && !b2) found.push({ kind: "opposite_action", detail: `${a2} ≠ ${b1}` });
  }
  return found;
}

function namedContrasts(a: Prepared, b: Prepared): Contrast[] {
  const found: Contrast[] = [];
  for (const [kind, things] of Object.entries(NAMED_KINDS)) {
    const inA = things.map((forms) => firstForm(a, forms));
    const inB = things.map((forms) => firstForm(b, forms));
    const onlyA = inA.filter((form, i) => form && !inB[i]);
    const onlyB = inB.filter((form, i) => form && !inA[i]);
    if (onlyA.length > 0 && onlyB.length > 0)
      found.push({ kind: "named_thing", detail: `${kind}: ${onlyA.join(", ")} ≠ ${onlyB.join(", ")}` });
  }
  return found;
}

/**
 * At most this many other content words may differ for a one-sided negation to count: "share a
 * calendar" / "stop sharing a calendar" is the opposite question, while a reworded problem ("X isn't
 * working" / "How do I fix X?") negates on one side as often in rewordings as in different
 * questions (MQP, stackfaq).
 */
export const NEGATION_FRAME_SLACK = 1;

function negationContrasts(a: Prepared, b: Prepared, difference: WordDifference): Contrast[] {
  const na = NEGATION.exec(a.padded);
  const nb = NEGATION.exec(b.padded);
  if (Boolean(na) === Boolean(nb)) return [];
  const word = (na ?? nb)![0].trim();
  const others = [...difference.onlyA, ...difference.onlyB].filter((w) => w !== word);
  if (others.length > NEGATION_FRAME_SLACK) return [];
  return [{ kind: "negation", detail: `"${word}" on one side only` }];
}

function askedForContrasts(a: Prepared, b: Prepared): Contrast[] {
  // The slot whose words come first: "Who is responsible when …" asks for a person, not a time.
  const slot = (p: Prepared) => {
    let first: { slot: string; at: number } | null = null;
    for (const [name, pattern] of ASKED_FOR) {
      const at = p.padded.search(pattern);
      if (at >= 0 && (!first || at < first.at)) first = { slot: name, at };
    }
    return first?.slot;
  };
  const sa = slot(a);
  const sb = slot(b);
  return sa && sb && sa !== sb ? [{ kind: "asked_for", detail: `asks for ${sa} ≠ ${sb}` }] : [];
}

/** Seed 003's question types, when both questions have a specific one and they differ. */
function questionTypeContrasts(a: string, b: string): Contrast[] {
  const ta = detectQuestionType(a);
  const tb = detectQuestionType(b);
  return ta !== "Generic" && tb !== "Generic" && ta !== tb ? [{ kind: "question_type", detail: `${ta} ≠ ${tb}` }] : [];
}

/** A shared frame of at least SWAP_FRAME content words with exactly one word swapped, or the same words reordered. */
export const SWAP_FRAME = 2;

function swappedWordContrasts(a: Prepared, b: Prepared, { onlyA, onlyB, shared }: WordDifference): Contrast[] {
  const swap = twoWordsSwapped(a.tokens, b.tokens);
  if (swap) return [{ kind: "swapped_word", detail: `"${swap[0]}" and "${swap[1]}" change places` }];
  if (shared < SWAP_FRAME || onlyA.length !== 1 || onlyB.length !== 1 || synonyms(onlyA[0]!, onlyB[0]!)) return [];
  return [{ kind: "swapped_word", detail: `${onlyA[0]} ≠ ${onlyB[0]}` }];
}

/**
 * Words a question may swap without changing what it asks, in Recall's domains: "delivery" for
 * "shipping", "turn" (on) for "enable". Each group is one meaning; the words of one pole of
 * OPPOSITES count as one group too.
 */
export const SYNONYMS: readonly (readonly string[])[] = [
  ["shipping", "delivery", "postage"],
  ["change", "update", "edit", "modify", "fix"],
  ["remove", "delete", "erase"],
  ["buy", "purchase", "order"],
  ["email", "e-mail", "mail"],
  ["photo", "picture", "image"],
  ["app", "application"],
  ["error", "issue", "problem", "bug"],
  ["cancel", "end", "stop", "terminate"],
  ["refund", "reimbursement"],
  ["login", "sign-in", "log-in", "signin"],
  ["plan", "subscription", "membership"],
  ["receipt", "invoice", "bill"],
  ["package", "parcel"],
  ["password", "passcode"],
];

function synonyms(x: string, y: string): boolean {
  const inGroup = (group: readonly string[]) =>
    group.some((w) => sameWord(x, w) || w.startsWith(`${x} `)) && group.some((w) => sameWord(y, w) || w.startsWith(`${y} `));
  return SYNONYMS.some(inGroup) || OPPOSITES.some(([first, second]) => inGroup(first) || inGroup(second));
}

/** "from the backlog to the sprint" / "from the sprint to the backlog": the same words, two of them changing places. */
function twoWordsSwapped(a: readonly string[], b: readonly string[]): [string, string] | null {
  if (a.length !== b.length) return null;
  const differ = a.flatMap((word, i) => (word === b[i] ? [] : [i]));
  if (differ.length !== 2) return null;
  const [i, j] = differ as [number, number];
  return a[i] === b[j] && a[j] === b[i] ? [a[i]!, a[j]!] : null;
}

/**
 * Words that frame a question rather than fill its slot ("what does X mean", "can you tell me",
 * "is it possible"): a rewording swaps them freely, so they never count as the swapped word.
 */
export const FRAME_WORDS: ReadonlySet<string> = new Set(
  `mean means meaning know tell want wanted like wondering wonder possible able way ways best sure think thought
  describe explain help need please thing things really usually actually exactly ever also one day make making
  get getting go going use used using work works working happen happens good right`.split(/\s+/),
);

interface WordDifference {
  /** Latin content words of one side, frame words aside, that no word of the other side matches (sameWord). */
  onlyA: string[];
  onlyB: string[];
  /** Content words of A that B matches. */
  shared: number;
}

/** The Latin content words two texts do not share (CJK bigrams are left out: a changed character is no swapped word). */
export function wordDifference(a: string, b: string): WordDifference {
  const wa = latinWords(a);
  const wb = latinWords(b);
  const matches = (word: string, other: readonly string[]) => other.some((o) => sameWord(word, o));
  const slot = (w: string) => !FRAME_WORDS.has(w);
  return {
    onlyA: wa.filter((w) => slot(w) && !matches(w, wb)),
    onlyB: wb.filter((w) => slot(w) && !matches(w, wa)),
    shared: wa.filter((w) => matches(w, wb)).length,
  };
}

function latinWords(text: string): string[] {
  return lexicalTerms(text).filter((t) => /^[\p{Script=Latin}\d]/u.test(t));
}

/**
 * The same word for the swap: the same stem (src/ranking/repeat.ts), one a form of the other
 * (use / using, remove / removed), or a slip of the keyboard (cetirizine / cetrizine: one edit in a
 * word of six letters or more).
 */
function sameWord(x: string, y: string): boolean {
  if (x === y || repeatTerms([x, y]).length === 1) return true;
  const bx = x.replace(/e$/, "");
  const by = y.replace(/e$/, "");
  if (bx.length >= 2 && by.length >= 2 && (y.startsWith(bx) || x.startsWith(by)) && Math.abs(x.length - y.length) <= 3) return true;
  return Math.min(x.length, y.length) >= 6 && withinOneEdit(x, y);
}

function withinOneEdit(x: string, y: string): boolean {
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return x.slice(i + (x.length >= y.length ? 1 : 0)) === y.slice(i + (y.length >= x.length ? 1 : 0));
}

/** The first of the forms found as whole words (Chinese forms: anywhere), or null. */
function firstForm(p: Prepared, forms: readonly string[]): string | null {
  for (const form of forms) {
    if (/[\p{Script=Han}]/u.test(form) ? p.padded.includes(form) : p.padded.includes(` ${form} `)) return form;
  }
  return null;
}

/** A verb's regular English forms: enable → enable, enables, enabled, enabling. */
function verb(base: string): string[] {
  const stem = base.endsWith("e") ? base.slice(0, -1) : base;
  const doubled = /[^aeiou][aeiou][bdgmnpt]$/.test(base) && base.length <= 4 ? base + base.at(-1) : base;
  return [...new Set([base, `${base}s`, base.endsWith("e") ? `${base}d` : `${doubled}ed`, `${base.endsWith("e") ? stem : doubled}ing`])];
}
