/**
 * Rule-based memory-card extraction (seed 003): entity/slot/value triples from the statements
 * in a text. Questions are skipped ("我是什么用户" states nothing). Pure: storage and versioning
 * live in src/cards/.
 */
import { CARD_RULES, type CardKind, type Polarity } from "./card-patterns";
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
}

/** Longest value kept; longer captures are cut at a word boundary. */
const MAX_VALUE_CHARS = 60;
const SENTENCE_END = /(?<=[.!?。！？；;\n])\s*/u;

export function extractCards(text: string): ExtractedCard[] {
  const cards: ExtractedCard[] = [];
  for (const sentence of normalizeText(text).text.split(SENTENCE_END)) {
    if (!sentence || isQuestion(sentence)) continue;
    const slotsSeen = new Set<string>();
    for (const rule of CARD_RULES) {
      if (slotsSeen.has(rule.slot) || (rule.slot === "likes" && slotsSeen.has("dislikes"))) continue;
      const match = rule.pattern.exec(sentence);
      const raw = match && (rule.value ? rule.value(match) : match.groups?.value);
      const value = raw && cleanValue(raw);
      if (!value) continue;
      slotsSeen.add(rule.slot);
      cards.push({
        kind: rule.kind,
        entity: rule.entity,
        slot: rule.slot,
        value,
        polarity: rule.polarity ?? null,
        confidence: rule.confidence,
      });
    }
  }
  return cards;
}

function cleanValue(raw: string): string {
  const trimmed = raw.replace(/^[\s"'“”‘’]+|[\s"'“”‘’.,，。!！?？]+$/gu, "");
  return trimmed.length <= MAX_VALUE_CHARS ? trimmed : trimmed.slice(0, MAX_VALUE_CHARS).replace(/\s+\S*$/u, "");
}

const WORK_WORDS = /\b(work|job|employer|company)\b|工作|上班|公司/u;
const DEVICE_WORDS = /\b(phone|laptop|computer|device)\b|手机|电脑|设备/u;

/** The card slots (of entity "user") that answer a question of this type, most specific first. */
export function slotsForQuestion(text: string, type: QuestionType = underlyingQuestionType(text)): string[] {
  if (DEVICE_WORDS.test(text.toLowerCase()) && type !== "HowMany") return ["device"];
  switch (type) {
    case "WhatKind":
      return ["user_type", "name"];
    case "Where":
      return WORK_WORDS.test(text.toLowerCase()) ? ["employer", "location"] : ["location"];
    case "Preference":
      return ["likes", "dislikes"];
    default:
      return WORK_WORDS.test(text.toLowerCase()) ? ["employer"] : [];
  }
}
