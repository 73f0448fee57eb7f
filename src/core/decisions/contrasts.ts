/**
 * What differs between two questions, named for a person: the leftovers of their alignment
 * (align.ts) that have a name, and the differences a table knows.
 *
 * - codes and numbers: E500 / E501, PO-12345 / PO-12346, Windows 10 / 11 (compared by their digits,
 *   so "E500" and "error 500" agree);
 * - opposite actions: enable / disable, import / export, 开启 / 关闭 … (OPPOSITES), and any two words
 *   WordNet calls antonyms (larger / smaller, opening / closing);
 * - different named things of one kind: Python / Node.js, Slack / Teams, Pro / Team plan, annual /
 *   monthly, iOS / Android … (NAMED_KINDS);
 * - a small word left on one side that changes the answer: negation ("not" on one side only), the
 *   slot asked for (how long / how much), time, period, degree, quantity, restriction (before /
 *   after, this / last month, most / least, more / less than, only);
 * - one word replaced in an otherwise matched frame (rename / delete a branch), or two words that
 *   changed places ("from the backlog to the sprint" / "from the sprint to the backlog").
 *
 * The tables name a kind of leftover, they do not decide alone: a pair is `same` only when its
 * alignment leaves nothing meaningful unmatched (same-question.ts), whatever the tables know. A
 * contrast is found only when each side holds something the other lacks (E500 on one side and
 * E501 on the other), or, for a small word, one side says it and the other does not.
 */
import { type Alignment, alignQuestions } from "./align";
import type { Unit } from "./units";
import { wordRelation } from "../text/synonyms";

export const CONTRAST_KINDS = ["code", "opposite_action", "named_thing", "negation", "asked_for", "small_word", "swapped_word"] as const;
export type ContrastKind = (typeof CONTRAST_KINDS)[number];

/**
 * Contrasts that make two questions different questions for the ticket pipeline (NEW, never a
 * MERGE): another code, the opposite action, another named thing. The others rule out a sure
 * `same` but are often rewordings in support tickets ("How long until I get my refund?" / "How long
 * does a refund take?", "Where can I download my invoices?" / "How do I download my invoices?",
 * "stop" / "cancel" my subscription): those go to a person as a MERGE (pipeline.replay.test.ts).
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

const TOKEN = /[\p{L}\p{N}]+(?:[-_.'/][\p{L}\p{N}]+)*|#/gu;

/** Every contrast between the two texts, in a fixed order (codes first: the plainest to read). */
export function findContrasts(a: string, b: string, alignment: Alignment = alignQuestions(a, b)): Contrast[] {
  const ta = prepare(a);
  const tb = prepare(b);
  const opposites = oppositeContrasts(ta, tb);
  const named = [
    ...codeContrasts(alignment),
    ...opposites,
    ...(opposites.length === 0 ? antonymContrasts(alignment) : []),
    ...namedContrasts(ta, tb),
  ];
  return [
    ...named,
    ...smallWordContrasts(alignment),
    // A replaced word a table has named already ("enable ≠ disable") says nothing new.
    ...(named.length === 0 ? replacedWordContrasts(alignment) : []),
    ...(alignment.swapped
      ? [{ kind: "swapped_word" as const, detail: `"${alignment.swapped[0]}" and "${alignment.swapped[1]}" change places` }]
      : []),
  ];
}

interface Prepared {
  /** The words, lower-cased, NFKC. */
  tokens: string[];
  /** The forms of OPPOSITES and NAMED_KINDS the text says. */
  forms: ReadonlySet<string>;
}

function prepare(text: string): Prepared {
  const lower = text.normalize("NFKC").toLowerCase().replace(/[’`]/g, "'");
  const tokens = [...lower.matchAll(TOKEN)].map((m) => m[0]);
  return { tokens, forms: formsSaid(tokens, ` ${tokens.join(" ")} `) };
}

/**
 * Small words that make a contrast when only one side says them: "not", "only", "more than". A
 * time, period, degree or slot said on one side only is left unmatched (no sure `same`) but named
 * only against another of its kind ("last ≠ this", "how long ≠ how much"): a rewording often adds
 * one ("How long until I get my refund?" / "How long does a refund take?", "What's your favourite
 * song?" / "Which song do you like most?").
 */
const ONE_SIDED: ReadonlySet<string> = new Set(["negation", "restriction", "quantity"]);

/** The small words left unmatched that change the answer, a contrast per group: "last ≠ this", "only in b: not". */
function smallWordContrasts({ onlyA, onlyB }: Alignment): Contrast[] {
  const small = (units: readonly Unit[]) => units.filter((u) => u.kind === "small");
  const sa = small(onlyA);
  const sb = small(onlyB);
  const both = (group: string) => sa.some((u) => u.group === group) && sb.some((u) => u.group === group);
  const groups = [...new Set([...sa, ...sb].map((u) => u.group!))].filter((g) => ONE_SIDED.has(g) || both(g));
  return groups.map((group) => {
    const wa = sa.filter((u) => u.group === group).map((u) => u.text);
    const wb = sb.filter((u) => u.group === group).map((u) => u.text);
    const kind: ContrastKind = group === "negation" ? "negation" : group === "asked_for" ? "asked_for" : "small_word";
    const detail =
      wa.length > 0 && wb.length > 0
        ? `${wa.join(", ")} ≠ ${wb.join(", ")}`
        : wa.length > 0
          ? `only in a: ${wa.join(", ")}`
          : `only in b: ${wb.join(", ")}`;
    return { kind, detail: group === "asked_for" ? `asks for ${detail}` : detail };
  });
}

/** Numbers and codes left unmatched on both sides ("E500" / "E501"): the alignment compares them by their digits. */
function codeContrasts({ onlyA, onlyB }: Alignment): Contrast[] {
  const numbers = (units: readonly Unit[]) => units.filter((u) => u.kind === "number").map((u) => u.text);
  const na = numbers(onlyA);
  const nb = numbers(onlyB);
  return na.length > 0 && nb.length > 0 ? [{ kind: "code", detail: `${na.join(", ")} ≠ ${nb.join(", ")}` }] : [];
}

/**
 * The one content word each side holds in an otherwise matched frame of at least SWAP_FRAME
 * links: "How do I rename a branch?" / "How do I delete a branch?". Rewordings seldom keep every
 * other word while changing exactly one (and a synonym is a link, not a leftover).
 */
export const SWAP_FRAME = 2;

function replacedWordContrasts({ onlyA, onlyB, links }: Alignment): Contrast[] {
  if (onlyA.length !== 1 || onlyB.length !== 1 || links.length < SWAP_FRAME) return [];
  const [a, b] = [onlyA[0]!, onlyB[0]!];
  return a.kind === "content" && b.kind === "content" ? [{ kind: "swapped_word", detail: `${a.text} ≠ ${b.text}` }] : [];
}

/**
 * A content word left on each side that WordNet calls the other's antonym (larger / smaller,
 * earliest / latest, opening / closing): the opposite, though no table names the pair.
 */
function antonymContrasts({ onlyA, onlyB }: Alignment): Contrast[] {
  const content = (units: readonly Unit[]) => units.filter((u) => u.kind === "content");
  for (const a of content(onlyA))
    for (const b of content(onlyB))
      if (wordRelation(a.key, b.key) === "opposite") return [{ kind: "opposite_action", detail: `${a.text} ≠ ${b.text}` }];
  return [];
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

/** The first of the forms found as whole words (Chinese forms: anywhere), or null. */
function firstForm(p: Prepared, forms: readonly string[]): string | null {
  for (const form of forms) if (p.forms.has(form)) return form;
  return null;
}

/**
 * Every form of the tables, split once (the tables are constants): the word forms by their number of words,
 * so a text finds its forms by looking up its own runs of words, not by searching for each of thousands of
 * forms (every similar question of every context call is compared); the Chinese forms, searched as they are.
 */
let tableForms: { words: ReadonlySet<string>; longest: number; han: readonly string[] } | null = null;
function formsOfTables() {
  if (tableForms) return tableForms;
  const all = [...OPPOSITES.flat(2), ...Object.values(NAMED_KINDS).flat(2)];
  const han = all.filter((form) => /\p{Script=Han}/u.test(form));
  const words = all.filter((form) => !han.includes(form));
  tableForms = { words: new Set(words), longest: Math.max(1, ...words.map((w) => w.split(" ").length)), han };
  return tableForms;
}

/** The table forms a text says: a word form as a run of its whole words, a Chinese form anywhere. */
function formsSaid(tokens: readonly string[], padded: string): Set<string> {
  const { words, longest, han } = formsOfTables();
  const said = new Set<string>();
  for (let start = 0; start < tokens.length; start++)
    for (let end = start + 1; end <= Math.min(tokens.length, start + longest); end++) {
      const run = tokens.slice(start, end).join(" ");
      if (words.has(run)) said.add(run);
    }
  if (/\p{Script=Han}/u.test(padded)) for (const form of han) if (padded.includes(form)) said.add(form);
  return said;
}

/** A verb's regular English forms: enable → enable, enables, enabled, enabling. */
function verb(base: string): string[] {
  const stem = base.endsWith("e") ? base.slice(0, -1) : base;
  const doubled = /[^aeiou][aeiou][bdgmnpt]$/.test(base) && base.length <= 4 ? base + base.at(-1) : base;
  return [...new Set([base, `${base}s`, base.endsWith("e") ? `${base}d` : `${doubled}ed`, `${base.endsWith("e") ? stem : doubled}ing`])];
}
