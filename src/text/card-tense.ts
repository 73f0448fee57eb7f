/**
 * What a statement says about time, read before the card rules (seed 003: cards never forget).
 * A clause that says a value is no longer true ("I no longer live in Austin", "I don't like jazz
 * anymore", "I used to work at Initech", 我不再住在北京, 我已经不在腾讯工作了, 我以前住在北京) is
 * rewritten to its positive form for the rules and marked `ended`; the store then ends that value
 * instead of setting it. A stated date ("in 2021", "since March 2019", "2020年") becomes the card's
 * event date and leaves the clause, and temporal words ("now", "anymore", 了, 现在 …) are never
 * part of a value.
 */

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
  [/\b[Ii] (?:left|quit) (?=\p{Lu})/u, "I work at ", "left"],
  [/我(?:已经)?从(.{1,20}?)离职了?/u, "我在$1工作", "离职"],
  [/\bused to be\b/iu, "am", "used to"],
  [/\bused to\s+/iu, "", "used to"],
  [/\b(?:formerly|previously)\s+/iu, "", "previously"],
  [/不再/u, "", "不再"],
  [/已经不|已不/u, "", "已经不"],
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
