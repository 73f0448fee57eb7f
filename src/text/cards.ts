/**
 * Rule-based memory-card extraction (seed 003): entity/slot/value triples from the statements
 * in a text. Questions are skipped ("我是什么用户" states nothing). Pure: storage and versioning
 * live in src/cards/.
 */
import { CARD_RULES, type CardKind, type Polarity } from "./card-patterns";
import { readTense, withoutTemporalWords } from "./card-tense";
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

/** Longest value kept; longer captures are cut at a word boundary. */
const MAX_VALUE_CHARS = 60;
const SENTENCE_END = /(?<=[.!?。！？；;\n])\s*/u;

export function extractCards(text: string): ExtractedCard[] {
  const cards: ExtractedCard[] = [];
  for (const sentence of normalizeText(text).text.split(SENTENCE_END)) {
    if (!sentence || isQuestion(sentence)) continue;
    for (const clause of clausesOf(sentence)) cards.push(...clauseCards(clause));
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
    slotsSeen.add(rule.slot);
    const extra: Record<string, string> = {};
    if (tense.cue) extra.cue = tense.cue;
    if (match.groups?.what) extra.device = match.groups.what.toLowerCase();
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

/** The clauses of a sentence; a Chinese clause with no subject borrows 我 from the one before (…，现在住在上海). */
function clausesOf(sentence: string): string[] {
  const clauses: string[] = [];
  let subject = false;
  for (const part of sentence.split(CLAUSE_BREAK)) {
    const clause = part.trim().replace(LEADING_CONNECTIVE, "").trim();
    if (!clause) continue;
    const chinese = /^[\p{Script=Han}]/u.test(clause);
    clauses.push(chinese && subject && !clause.includes("我") ? `我${clause}` : clause);
    subject = clause.includes("我") || (subject && chinese);
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
 * The card slots (of entity "user") that answer a question of this type, most specific first.
 * Only these cards boost a memory: "My name is Dana" does not answer 我是什么用户 (user_type),
 * and "I live in Austin" does not answer "where do I work?" (employer).
 */
export function slotsForQuestion(text: string, type: QuestionType = underlyingQuestionType(text)): string[] {
  const lower = text.toLowerCase();
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
