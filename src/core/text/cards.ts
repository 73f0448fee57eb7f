/**
 * Rule-based memory-card extraction (seed 003): entity/slot/value triples from the statements
 * in a text. Questions are skipped ("我是什么用户" states nothing). Pure: storage and versioning
 * live in src/features/cards/.
 */
import { CARD_RULES } from "./card-patterns";
import type { CardKind, Polarity } from "./card-rule";
import { readTense, restateChange, withoutTemporalWords } from "./card-tense";
import { isQuestion } from "./is-question";
import { normalizeText } from "./normalize";
import type { QuestionType } from "./question-patterns";
import { underlyingQuestionType } from "./question-type";

export interface ExtractedCard {
  kind: CardKind;
  entity: string;
  slot: string;
  value: string;
  polarity: Polarity | null;
  confidence: number;
  /** The statement ends this value ("I no longer live in Austin"): stored as a `retracts` version. */
  retracts: boolean;
  /** When the fact became true, if the statement says ("in 2021", "since March 2019", "2020年"); ms UTC. */
  eventDate: number | null;
  /** What the rule saw besides the value: the temporal cue, the kind of device; null when nothing. */
  extra: Record<string, string> | null;
}

/**
 * Values that point at a value instead of naming one ("I don't live there anymore", 我不住那里了).
 * The card keeps the word and carries extra.refersTo = "current": the store ends the slot's
 * current value, whatever it is (src/features/cards/store.ts).
 */
const ANAPHOR = /^(?:there|here|那里|那儿|那边|这里|这儿)$/iu;

/** Longest value kept; longer captures are cut at a word boundary. */
const MAX_VALUE_CHARS = 60;
const SENTENCE_END = /(?<=[.!?。！？；;\n])\s*/u;

export function extractCards(text: string): ExtractedCard[] {
  const cards: ExtractedCard[] = [];
  for (const sentence of normalizeText(text).text.split(SENTENCE_END)) {
    if (!sentence || isQuestion(sentence)) continue;
    for (const clause of clausesOf(sentence)) for (const plain of restateChange(clause)) cards.push(...clauseCards(plain));
  }
  return cards;
}

function clauseCards(raw: string): ExtractedCard[] {
  const tense = readTense(raw);
  const cards: ExtractedCard[] = [];
  const slotsSeen = new Set<string>();
  for (const rule of CARD_RULES) {
    if (slotsSeen.has(rule.slot) || (rule.slot === "likes" && slotsSeen.has("dislikes"))) continue;
    const match = rule.pattern.exec(tense.clause);
    const captured = match && (rule.value ? rule.value(match) : match.groups?.value);
    const value = captured && cleanValue(captured);
    if (!value) continue;
    // "there" names no value: with an end it means the current one, without one it says nothing.
    const anaphor = ANAPHOR.test(value);
    if (anaphor && !tense.ended) continue;
    slotsSeen.add(rule.slot);
    const extra: Record<string, string> = {};
    if (tense.cue) extra.cue = tense.cue;
    if (rule.detail && match.groups?.what) extra[rule.detail] = match.groups.what.toLowerCase();
    if (anaphor) extra.refersTo = "current";
    cards.push({
      kind: rule.kind,
      entity: rule.entity,
      slot: rule.slot,
      value,
      polarity: rule.polarity ?? null,
      confidence: rule.confidence,
      retracts: tense.ended,
      eventDate: tense.eventDate,
      extra: Object.keys(extra).length > 0 ? extra : null,
    });
  }
  return cards;
}

/** Where a sentence turns ("…, but now I …", "我以前住在北京，现在住在上海"): each clause states its own fact. */
const CLAUSE_BREAK = /[,;，；、]\s*|\s+(?=(?:but|however|whereas|though|although)\b)|(?=但是|不过|可是)/iu;
const LEADING_CONNECTIVE = /^(?:(?:but|however|whereas|though|although|and|so|then)\s+)+|^(?:但是|不过|可是|而且|并且|但|而)/iu;

/** An English clause that says who: "I …", "we …". */
const EN_SUBJECT = /\b(?:i|we)\b/iu;
/** A clause that starts with someone or something else ("…, my wife works at Dell", "…, the weather is great"). */
const EN_OTHER_START = /^(?:he|she|they|it|this|that|these|those|which|who|what|my|our|his|her|their|the|a|an|there)\b/u;

/**
 * The clauses of a sentence. A clause with no subject borrows the one before it: 我 in Chinese
 * (我以前住在北京，现在住在上海), "I" in English when it starts with a lower-case word ("I'm from
 * Texas but live in Ohio", "I live in Austin, work at Dell").
 */
function clausesOf(sentence: string): string[] {
  const clauses: string[] = [];
  let subject = false;
  for (const part of sentence.split(CLAUSE_BREAK)) {
    const clause = part.trim().replace(LEADING_CONNECTIVE, "").trim();
    if (!clause) continue;
    const chinese = /^[\p{Script=Han}]/u.test(clause);
    const english = /^\p{Ll}/u.test(clause) && !EN_OTHER_START.test(clause);
    if (chinese && subject && !clause.includes("我")) clauses.push(`我${clause}`);
    else if (english && subject && !EN_SUBJECT.test(clause)) clauses.push(`I ${clause}`);
    else clauses.push(clause);
    subject = chinese ? clause.includes("我") || subject : EN_SUBJECT.test(clause) || (subject && english);
  }
  return clauses;
}

function cleanValue(raw: string): string {
  const trimmed = withoutTemporalWords(raw.replace(/^[\s"'“”‘’]+|[\s"'“”‘’.,，。!！?？]+$/gu, ""));
  return trimmed.length <= MAX_VALUE_CHARS ? trimmed : trimmed.slice(0, MAX_VALUE_CHARS).replace(/\s+\S*$/u, "");
}

const WORK_WORDS = /\b(work|job|employer|company)\b|工作|上班|公司/u;
const DEVICE_WORDS = /\b(phone|laptop|computer|device)\b|手机|电脑|设备/u;
const NAME_WORDS = /\bname\b|\bcalled\b|名字|叫什么/u;
const WHO_AM_I = /\bwho am i\b|我是谁/u;

/**
 * Words that name a slot outright, whatever the question type; first match wins, before the
 * device and name words ("what's my wife's name?" asks for the partner, not the user's name).
 */
const TOPIC_SLOTS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/\b(?:wife|husband|partner|spouse|girlfriend|boyfriend|married)\b|老婆|妻子|老公|丈夫|对象|女朋友|男朋友/u, ["partner"]],
  [/\b(?:kids?|children|sons?|daughters?)\b|孩子|儿子|女儿|小孩/u, ["child"]],
  [/\b(?:pets?|dogs?|cats?)\b|宠物|狗|猫/u, ["pet"]],
  [/\b(?:diet|vegetarian|vegan)\b|吃素|素食|饮食|忌口/u, ["diet"]],
  [/\bbirthday\b|\bborn\b|生日/u, ["birthday"]],
  [/\bhow old\b|\bage\b|多大|几岁|年龄/u, ["age"]],
  [/\bspeak\b|\bnative language\b|母语|会说/u, ["language"]],
  // Not "plan": "which plan am I on?" asks about a subscription.
  [/\b(?:goals?|resolutions?|planning to)\b|目标|打算|梦想/u, ["goal"]],
  [/\b(?:upcoming|coming up|appointments?)\b|日程/u, ["event"]],
];

/**
 * The card slots (of entity "user") that answer a question of this type, most specific first.
 * Only these cards boost a memory: "My name is Dana" does not answer 我是什么用户 (user_type),
 * and "I live in Austin" does not answer "where do I work?" (employer).
 */
export function slotsForQuestion(text: string, type: QuestionType = underlyingQuestionType(text)): string[] {
  const lower = text.toLowerCase();
  const topic = TOPIC_SLOTS.find(([words]) => words.test(lower));
  if (topic) return [...topic[1]];
  if (DEVICE_WORDS.test(lower) && type !== "HowMany") return ["device"];
  if (NAME_WORDS.test(lower) && type !== "HowMany") return ["name"];
  switch (type) {
    case "WhatKind":
      return WHO_AM_I.test(lower) ? ["name", "user_type"] : ["user_type"];
    case "Where":
      return WORK_WORDS.test(lower) ? ["employer"] : ["location"];
    case "Preference":
      return ["likes", "dislikes"];
    default:
      return WORK_WORDS.test(lower) ? ["employer"] : [];
  }
}
