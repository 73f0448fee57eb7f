/**
 * Question-type patterns (seed 003), as data. Each list is checked against the lower-cased,
 * normalized text; the first type (in QUESTION_TYPE_PRIORITY order) with a matching pattern wins.
 * English patterns are regular expressions on word boundaries; Chinese ones are regular
 * expressions too (the seed writes "我是.*用户"), anchored nowhere.
 */
export const QUESTION_TYPE_PRIORITY = ["WhatKind", "HowMany", "Recency", "Update", "Where", "Preference"] as const;
export type SpecificQuestionType = (typeof QUESTION_TYPE_PRIORITY)[number];
export type QuestionType = SpecificQuestionType | "Generic";

export const QUESTION_PATTERNS: Record<SpecificQuestionType, { en: readonly string[]; zh: readonly string[] }> = {
  WhatKind: {
    en: [
      "\\bwho am i\\b",
      "\\bwhat am i\\b",
      "\\bwhat (kind|type|sort) of (user|person|developer|customer|player)\\b",
      "\\bam i an? \\w+ (user|person|developer|fan)\\b",
      "\\bwhat is my (role|identity|user type|job title)\\b",
    ],
    zh: ["我是什么", "我是谁", "我的身份", "我是.*用户", "我属于", "我算.*用户", "我是.*吗", "哪(种|类)用户"],
  },
  HowMany: {
    en: ["\\bhow (many|much)\\b", "\\bnumber of\\b", "\\bhow often\\b", "\\bcount (of|the)\\b"],
    zh: ["多少", "几个", "几次", "几台", "几本", "几只", "有几", "数量"],
  },
  Recency: {
    en: [
      "\\bcurrent(ly)?\\b",
      "\\blatest\\b",
      "\\bright now\\b",
      "\\bnow\\b",
      "\\bthese days\\b",
      "\\bmost recent(ly)?\\b",
      "\\bnowadays\\b",
      "\\bat the moment\\b",
    ],
    zh: ["现在", "目前", "最新", "当前", "最近", "如今"],
  },
  Update: {
    en: [
      "\\bchanged?\\b.*\\b(from|to)\\b",
      "\\bused to\\b",
      "\\bpreviously\\b",
      "\\bformerly\\b",
      "\\bno longer\\b",
      "\\banymore\\b",
      "\\bswitch(ed)? (from|to)\\b",
      "\\bbefore and (now|after)\\b",
    ],
    zh: ["之前", "以前", "原来", "改成", "换成", "变成", "变了", "更新", "不再"],
  },
  Where: {
    en: ["\\bwhere\\b", "\\bwhich (city|country|place|town|office|state)\\b", "\\blocation\\b", "\\baddress\\b"],
    zh: ["在哪", "哪里", "哪儿", "什么地方", "住在", "位置", "地址", "哪个城市", "哪个国家"],
  },
  Preference: {
    en: [
      "\\b(do|did|does) (i|you|he|she|they|we) (like|love|prefer|enjoy|hate|dislike)\\b",
      "\\bfavou?rite\\b",
      "\\bprefer(ence|ences|red)?\\b",
      "\\bwhat (do|does) \\w+ (like|love|enjoy)\\b",
    ],
    zh: ["喜欢什么", "爱什么", "偏好", "喜欢", "讨厌", "最爱", "爱好"],
  },
};
