/**
 * What a statement says about time, read before the card rules (seed 003: cards never forget).
 * A clause that says a value is no longer true ("I no longer live in Austin", "I don't like jazz
 * anymore", "I used to work at Initech", 我不再住在北京, 我已经不在腾讯工作了, 我以前住在北京) is
 * rewritten to its positive form for the rules and marked `ended`; the store then ends that value
 * instead of setting it. A stated date ("in 2021", "since March 2019", "2020年") becomes the card's
 * event date and leaves the clause, and temporal words ("now", "anymore", 了, 现在 …) are never
 * part of a value.
 */

import { EN_ADVERBS, EN_PLACES, EN_PROPER, ZH_PLACE, ZH_WHEN } from "./card-words";

/**
 * Statements of change, restated as the plain clauses they stand for before anything else reads
 * them; the first rule that matches wins. The restated clauses then go through readTense and the
 * card rules like any other clause, so a rule here only says what ends and what starts:
 *
 * | statement                                      | read as                                           |
 * |------------------------------------------------|---------------------------------------------------|
 * | I moved from Austin to Denver                  | I no longer live in Austin · I moved to Denver    |
 * | I moved to Denver from Austin                  | I no longer live in Austin · I moved to Denver    |
 * | I moved away from Austin / out of Austin       | I no longer live in Austin                        |
 * | I moved away / we moved out                    | I no longer live there (the current location)     |
 * | I left Austin (a known place) [for Denver]     | I no longer live in Austin [· I moved to Denver]  |
 * | I left Google / I quit Google [to join Meta]   | I no longer work at Google [· I joined Meta]      |
 * | I left my job at Google                        | I no longer work at Google                        |
 * | I quit my job / I was laid off / I resigned    | I no longer work there (the current employer)     |
 * | 我从北京搬到了上海                              | 我不再住在北京 · 我搬到上海                        |
 * | 我离开了北京 (a place) / 我离开了腾讯            | 我不再住在北京 / 我不再在腾讯工作                  |
 * | I'm not in Austin anymore / I'm no longer at Google | I no longer live in Austin / I no longer work at Google |
 * | 我现在不在北京了 / 我已经不在腾讯了                | 我不再住在北京 / 我不再在腾讯工作                   |
 * | 我搬走了                                        | 我不再住在那里 (the current location)              |
 * | 我辞职了 / 我离职了 / 我被裁员了                 | 我不再在那里工作 (the current employer)            |
 *
 * "I left X" is a place only when X is one (EN_PLACES, ZH_PLACE): an unknown name reads as an
 * employer, as "I left Microsoft" does, and "quit" is always a job. "there" / 那里 after an end
 * stands for the current value: cards.ts marks such a card, the store ends whatever is current.
 */
type Groups = Partial<Record<string, string>>;
interface ChangeRule {
  pattern: RegExp;
  restate: (g: Groups) => string[];
}

const isEnPlace = (name: string) => EN_PLACES.has(name.toLowerCase().replace(/\.$/u, "")) || / City\.?$/u.test(name);
/** What 离开 can leave without ending a card: home, school, a while (我离开了一会儿). */
const NOT_LEFT = /^(?:家|家乡|老家|学校|国内|国外)$|^(?:一|几|这|那个)/u;
const ZH_ANAPHOR = /^(?:那里|那儿|那边|这里|这儿)$/u;
const endJob = (from?: string) => [from ? `I no longer work at ${from}` : "I no longer work there"];

function leftRestatement({ verb, from = "", link, to }: Groups): string[] {
  const place = verb === "left" && (isEnPlace(from) || (link === "for" && to !== undefined && isEnPlace(to)));
  const out = [place ? `I no longer live in ${from}` : `I no longer work at ${from}`];
  if (to) out.push(/join|work|start/u.test(link ?? "") || (link === "for" && !place) ? `I joined ${to}` : `I moved to ${to}`);
  return out;
}

const CHANGE_RULES: readonly ChangeRule[] = [
  {
    pattern:
      /\b(?:i|we) (?:(?:just|recently|finally) )?(?:moved|relocated)(?: here| back| over)? from (?<from>[\p{L}][\p{L}\p{N} .'-]{0,40}?) to (?<to>.+)$/iu,
    restate: ({ from, to }) => [`I no longer live in ${from}`, `I moved to ${to}`],
  },
  {
    pattern:
      /\b(?:i|we) (?:(?:just|recently|finally) )?(?:moved|relocated) to (?<to>[^,;]+?) from (?<from>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]|$)/iu,
    restate: ({ from, to }) => [`I no longer live in ${from}`, `I moved to ${to}`],
  },
  {
    pattern:
      /\b(?:i|we) (?:(?:just|recently|finally|already) )?moved (?:away |out )?(?:from|out of) (?<from>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | in | last |$)/iu,
    restate: ({ from }) => [`I no longer live in ${from}`],
  },
  { pattern: /\b(?:i|we) (?:(?:just|recently|finally|already) )?moved (?:away|out)\b/iu, restate: () => ["I no longer live there"] },
  {
    pattern: new RegExp(`\\b[Ii] ${EN_ADVERBS}(?:left|quit|lost) my (?:job|position|role)(?: (?:at|with) (?<from>${EN_PROPER}))?`, "u"),
    restate: ({ from }) => endJob(from),
  },
  {
    pattern: new RegExp(
      `\\b[Ii](?: was| got|'ve been| have been)? ${EN_ADVERBS}(?:laid off|fired|let go|resigned)(?: (?:from|by) (?<from>${EN_PROPER}))?`,
      "u",
    ),
    restate: ({ from }) => endJob(from),
  },
  {
    pattern: new RegExp(
      `\\b[Ii] ${EN_ADVERBS}(?<verb>left|quit) (?<from>${EN_PROPER})(?: (?<link>for|to join|and joined|to work at|to start at|and moved to|to move to) (?<to>${EN_PROPER}))?`,
      "u",
    ),
    restate: leftRestatement,
  },
  {
    pattern: new RegExp(
      `我${ZH_WHEN}从(?<from>[^，,。！!？?；;\\s]{1,20}?)搬(?:(?:到|去|来)了?(?<to>[^，,。！!？?；;\\s]{1,20})|过来|过去|走)?了?`,
      "u",
    ),
    restate: ({ from, to }) => [`我不再住在${from}`, ...(to ? [`我搬到${to}`] : [])],
  },
  {
    pattern: new RegExp(`我${ZH_WHEN}离开了?(?<from>[^，,。！!？?；;\\s]{1,20}?)(?=了?\\p{P}*$)`, "u"),
    restate: ({ from = "" }) => {
      if (ZH_PLACE.test(from) || ZH_ANAPHOR.test(from)) return [`我不再住在${from}`];
      if (NOT_LEFT.test(from)) return [];
      return [`我不再在${from === "公司" ? "那里" : from}工作`];
    },
  },
  {
    // "I'm not in Austin anymore", "I'm no longer at Google": being somewhere ended; a place is where one lives, a company where one works
    pattern: new RegExp(
      `\\b(?:[Ii]'m|[Ii] am|[Ww]e're|[Ww]e are) (?:not|no longer) (?:based |living )?(?<prep>in|at|with) (?<from>${EN_PROPER})(?= (?:anymore|any more|any longer)|[,.!;]|$)`,
      "u",
    ),
    restate: ({ prep, from = "" }) => [prep === "in" || isEnPlace(from) ? `I no longer live in ${from}` : `I no longer work at ${from}`],
  },
  {
    // 我现在不在北京了 / 我已经不在腾讯了: no longer at a place or a company
    pattern: new RegExp(`我${ZH_WHEN}(?:已经)?不在(?<from>[^，,。！!？?；;\\s]{1,20}?)(?:工作|上班|住)?了`, "u"),
    restate: ({ from = "" }) => [ZH_PLACE.test(from) || ZH_ANAPHOR.test(from) ? `我不再住在${from}` : `我不再在${from}工作`],
  },
  { pattern: new RegExp(`^我${ZH_WHEN}搬走了?`, "u"), restate: () => ["我不再住在那里"] },
  { pattern: new RegExp(`^我${ZH_WHEN}(?:辞职|离职|被裁员?|被开除|失业)了?`, "u"), restate: () => ["我不再在那里工作"] },
];

/** A clause as the plain clauses it stands for: itself, or what a statement of change ends and starts. */
export function restateChange(clause: string): string[] {
  for (const { pattern, restate } of CHANGE_RULES) {
    const m = pattern.exec(clause);
    if (!m) continue;
    const out = restate(m.groups ?? {});
    if (out.length === 0) return [clause];
    // What came before and after the statement stays with it ("Last year I left Google", "… in 2021").
    out[0] = clause.slice(0, m.index) + out[0];
    out[out.length - 1] += clause.slice(m.index + m[0].length);
    return out;
  }
  return [clause];
}

export interface ClauseTense {
  /** The clause with retraction cues and dates removed, ready for the card rules. */
  clause: string;
  /** The clause says the value is no longer true. */
  ended: boolean;
  /** The temporal cue the clause carried ("no longer", "now", 不再 …), if any. */
  cue: string | null;
  /** When the fact became true (ms since epoch, UTC), when the clause says so. */
  eventDate: number | null;
}

/** Cues that end a value, as [pattern, replacement, cue]; the first that matches wins. */
const ENDED_CUES: readonly (readonly [RegExp, string, string])[] = [
  [/\bno longer\s+/iu, "", "no longer"],
  [/\b(?:stopped|quit)\s+(working|living|using)\b/iu, "$1", "stopped"],
  [/我(?:已经)?从(.{1,20}?)离职了?/u, "我在$1工作", "离职"],
  [/\bused to be\b/iu, "am", "used to"],
  [/\bused to\s+/iu, "", "used to"],
  [/\b(?:formerly|previously)\s+/iu, "", "previously"],
  [/不再/u, "", "不再"],
  [/已经不|已不/u, "", "已经不"],
  // 我不住那里了, 我不在腾讯工作了, 我不是学生了: 不 … 了 on living, working, being or using says "no longer"
  // (not on liking: 我不喜欢香菜了 states a dislike)
  [/(?<=我)不(?=(?:住|在|是|用)[^，,。]*了\p{P}*$)/u, "", "不…了"],
  [/以前|之前|原来|曾经|过去/u, "", "以前"],
];
/** "not … anymore": the negation goes, the rest reads as the value that ended. */
const ANYMORE = /\s*\b(?:anymore|any more|any longer)\b/iu;
const NEGATION = /\b(?:do not|don't|does not|doesn't|am not|is not|isn't)\s+|(?<=\bi'm)\s+not\b|(?<=\bi am)\s+not\b/iu;
/** After a retraction cue, past forms read as present so one rule serves both. */
const PAST_FORMS: readonly (readonly [RegExp, string])[] = [
  [/\bworked\b/giu, "work"],
  [/\blived\b/giu, "live"],
  [/\bliked\b/giu, "like"],
  [/\bloved\b/giu, "love"],
  [/\bi was an?\b/giu, "I am a"],
];
const CURRENT_CUES = /\b(?:now|currently|these days|nowadays|at the moment|right now|at present)\b|现在|目前|如今/iu;

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const EN_DATE = new RegExp(`\\s*\\b(?:in|since|from|as of)\\s+(?:(${MONTHS.join("|")})\\s+)?((?:19|20)\\d{2})\\b`, "iu");
const ISO_DATE = /\s*\b(?:on|since|from)?\s*((?:19|20)\d{2})-(\d{2})-(\d{2})\b/iu;
const ZH_DATE = /((?:19|20)\d{2})年(?:(\d{1,2})月)?(?:起|开始)?/u;

export function readTense(input: string): ClauseTense {
  let clause = input;
  let eventDate: number | null = null;
  const iso = ISO_DATE.exec(clause);
  const en = iso ? null : EN_DATE.exec(clause);
  const zh = iso || en ? null : ZH_DATE.exec(clause);
  if (iso) eventDate = Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  else if (en) eventDate = Date.UTC(Number(en[2]), en[1] ? MONTHS.indexOf(en[1].toLowerCase()) : 0, 1);
  else if (zh) eventDate = Date.UTC(Number(zh[1]), zh[2] ? Number(zh[2]) - 1 : 0, 1);
  const date = iso ?? en ?? zh;
  if (date) clause = clause.replace(date[0], "");

  let ended = false;
  let cue: string | null = null;
  for (const [pattern, replacement, name] of ENDED_CUES) {
    if (pattern.test(clause)) {
      clause = clause.replace(pattern, replacement);
      ended = true;
      cue = name;
      break;
    }
  }
  if (ANYMORE.test(clause)) {
    if (!ended && NEGATION.test(clause)) {
      clause = clause.replace(NEGATION, "");
      ended = true;
      cue = "not anymore";
    }
    clause = clause.replace(ANYMORE, "");
  }
  if (ended) for (const [pattern, present] of PAST_FORMS) clause = clause.replace(pattern, present);
  if (!cue) cue = CURRENT_CUES.exec(clause)?.[0].toLowerCase() ?? null;
  return { clause: clause.replace(/\s{2,}/gu, " ").trim(), ended, cue, eventDate };
}

const TRAILING_TEMPORAL =
  /(?:\s+(?:now|currently|anymore|any more|any longer|these days|nowadays|at the moment|right now|at present|for now|again|too|as well|still|recently|(?:last|this|next) (?:year|month|week|spring|summer|fall|autumn|winter)|(?:a (?:while|year|month) |\w+ (?:years?|months?|weeks?) )ago|for (?:\w+ )?(?:years?|months?|weeks?)))+$|[了啦呢]+$/iu;
const LEADING_TEMPORAL = /^(?:(?:now|currently|still|also)\s+)+|^(?:现在|目前|如今|还|也)/iu;

/** A value without the temporal words around it: "Globex now" → "Globex", "香菜了" → "香菜". */
export function withoutTemporalWords(value: string): string {
  let previous = "";
  let out = value.trim();
  while (out !== previous) {
    previous = out;
    out = out.replace(TRAILING_TEMPORAL, "").replace(LEADING_TEMPORAL, "").trim();
  }
  return out;
}
