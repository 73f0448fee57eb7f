/**
 * Memory-card extraction rules (seed 003, Phase 2), as data. Each rule reads one sentence; the
 * `value` group is what the card stores. Chinese rules follow the seed's regexes; English ones
 * are their counterparts. Single-valued slots keep one current value (newest wins); multi-valued
 * slots (likes, dislikes) collect values.
 */
export type CardKind = "fact" | "preference" | "event" | "profile" | "relationship" | "goal";
export type Polarity = "positive" | "negative";

export interface CardRule {
  kind: CardKind;
  entity: string;
  slot: string;
  pattern: RegExp;
  /** Builds the value from the match (default: the `value` group). */
  value?: (m: RegExpExecArray) => string;
  polarity?: Polarity;
  confidence: number;
}

/** Slots that hold a set of values rather than one current value. */
export const MULTI_VALUED_SLOTS: ReadonlySet<string> = new Set(["likes", "dislikes"]);

const ZH_ROLES = "用户|玩机党|开发者|学生|工程师|程序员|设计师|老师|医生|产品经理|玩家";
const EN_ROLES = "user|developer|engineer|student|gamer|designer|fan|enthusiast|teacher|doctor|programmer|player|manager";

// Rules are tried in order and a sentence yields at most one card per slot; negative
// preferences come before positive ones so "我不喜欢" is not read as "我喜欢".
export const CARD_RULES: readonly CardRule[] = [
  // Chinese (seed 003)
  { kind: "profile", entity: "user", slot: "user_type", confidence: 0.85, pattern: new RegExp(`我是(?<value>.{0,20}?(?:${ZH_ROLES}))`, "u") },
  { kind: "profile", entity: "user", slot: "location", confidence: 0.8, pattern: /我(?:现在|目前)?住在?(?<value>[^，,。！!？?\s]{1,30})/u },
  { kind: "profile", entity: "user", slot: "location", confidence: 0.75, pattern: /我(?:现在|目前|已经)?(?:搬到|搬去|定居在?)了?(?<value>[^，,。！!？?\s]{1,30})/u },
  { kind: "profile", entity: "user", slot: "employer", confidence: 0.75, pattern: /我(?:现在|目前)?在(?<value>[^，,。！!？?\s]{1,20}?)(?:工作|上班)/u },
  {
    kind: "fact",
    entity: "user",
    slot: "device",
    confidence: 0.75,
    pattern: /我(?:的|用的?)(?<what>手机|电脑|设备)是?(?<value>[^，,。！!？?\s]{1,30})/u,
  },
  { kind: "preference", entity: "user", slot: "dislikes", polarity: "negative", confidence: 0.75, pattern: /我(?:很|最|特别|真的|一直|还是|也|都)*(?:不喜欢|讨厌|不爱)(?<value>[^，,。！!？?]{1,30})/u },
  { kind: "preference", entity: "user", slot: "likes", polarity: "positive", confidence: 0.75, pattern: /我(?:很|最|特别|真的|一直|还是|又|还|也|都|仍然|依然|现在)*(?:喜欢|爱)(?<value>[^，,。！!？?]{1,30})/u },
  // English
  { kind: "profile", entity: "user", slot: "name", confidence: 0.9, pattern: /\bmy name is (?<value>[\p{L}][\p{L}' -]{0,40}?)(?=[,.!;]|$)/iu },
  {
    kind: "profile",
    entity: "user",
    slot: "user_type",
    confidence: 0.8,
    pattern: new RegExp(`\\bi(?:'m| am) an? (?<value>(?:[\\w-]+ ){0,3}(?:${EN_ROLES}))\\b`, "iu"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "location",
    confidence: 0.8,
    pattern: /\bi (?:currently |now )?(?:live in|moved to|am based in|'m based in|am located in|'m located in) (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but |$)/iu,
  },
  {
    kind: "profile",
    entity: "user",
    slot: "employer",
    confidence: 0.75,
    pattern: /\bi (?:currently |now )?(?:work|have worked|'ve worked|have been working|'ve been working|am working|'m working) (?:at|for) (?<value>[\p{L}\p{N}][\p{L}\p{N} .&'-]{0,40}?)(?=[,.!;?]| as | and | but |$)/iu,
  },
  {
    kind: "fact",
    entity: "user",
    slot: "device",
    confidence: 0.7,
    pattern: /\b(?:my (?<what>phone|laptop|computer) is an?|i use an?) (?<value>[\p{L}\p{N}][\p{L}\p{N} .+-]{0,30}?)(?=[,.!;?]| and | but | for |$)/iu,
  },
  {
    kind: "preference",
    entity: "user",
    slot: "dislikes",
    polarity: "negative",
    confidence: 0.7,
    pattern: /\bi (?:really )?(?:don't like|do not like|hate|dislike) (?<value>[\p{L}\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)/iu,
  },
  {
    kind: "preference",
    entity: "user",
    slot: "likes",
    polarity: "positive",
    confidence: 0.7,
    pattern: /\bi (?:really )?(?:like|love|enjoy|prefer) (?<value>[\p{L}\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)/iu,
  },
];
