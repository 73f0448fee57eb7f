import type { CardRule } from "./card-rule";
import { EN_NAME, withoutOne } from "./card-words";

/**
 * Relationship slots and the words that name them. For each, rules read a name ("my wife Anna",
 * "my daughter is called Mia", 我女儿叫小雨) or a count ("I have two kids", 我养了一只猫); the
 * relation word itself goes to extra.relation.
 */
const RELATIONS: readonly { slot: string; en: string; zh: string }[] = [
  {
    slot: "partner",
    en: "wife|husband|partner|spouse|girlfriend|boyfriend|fiancée|fiancee|fiancé|fiance",
    zh: "老婆|妻子|太太|爱人|老公|丈夫|先生|女朋友|男朋友|女友|男友|对象|未婚妻|未婚夫",
  },
  { slot: "child", en: "son|daughter|kid|child|baby|twins", zh: "儿子|女儿|孩子|宝宝|小孩|闺女" },
  {
    slot: "pet",
    en: "dog|cat|puppy|kitten|pet|parrot|rabbit|bunny|hamster|turtle|retriever|labrador|poodle|beagle|terrier|husky|corgi",
    zh: "狗狗|狗|猫咪|猫|宠物|兔子|仓鼠|鹦鹉",
  },
];

function relationRules({ slot, en, zh }: (typeof RELATIONS)[number]): CardRule[] {
  const base = { kind: "relationship", entity: "user", slot, detail: "relation" } as const;
  return [
    // my wife Anna / my wife, Anna / my daughter's name is Mia / my dog is called Max
    {
      ...base,
      confidence: 0.75,
      pattern: new RegExp(
        `\\b[Mm]y (?<what>${en})(?:'s name is | is (?:called|named) | (?:called|named) |,? )(?<value>${EN_NAME})\\b`,
        "u",
      ),
    },
    // I have a dog named Max
    {
      ...base,
      confidence: 0.75,
      pattern: new RegExp(`\\b(?:[Ii]|[Ww]e) have an? (?:[\\p{Ll}-]+ ){0,2}(?<what>${en}) (?:named|called) (?<value>${EN_NAME})\\b`, "u"),
    },
    // My daughter just started school / my son plays chess: a child spoken of is a child one has
    ...(slot === "child"
      ? [
          {
            ...base,
            confidence: 0.65,
            pattern: new RegExp(
              `\\b[Mm]y (?<value>(?<what>son|daughter|kids|children|twins))(?!'s name| is (?:called|named))\\b(?= [\\p{Ll}])`,
              "u",
            ),
          },
        ]
      : []),
    // I have two kids / I've got a cat (not "a cat allergy")
    {
      ...base,
      confidence: 0.7,
      value: withoutOne,
      pattern: new RegExp(
        `\\bi (?:have|'ve got|have got) (?<value>(?:a|an|one|two|three|four|five|\\d) (?:[\\p{L}\\p{N}-]+ )?(?<what>${en})(?:s|ren)?)\\b(?! (?:named|called|allerg|food|litter|toy|hair))`,
        "iu",
      ),
    },
    // I'm married to Anna
    ...(slot === "partner"
      ? [
          {
            ...base,
            confidence: 0.75,
            pattern: new RegExp(`\\b[Ii](?:'m| am) (?:happily )?(?<what>married|engaged) to (?<value>${EN_NAME})\\b`, "u"),
          },
        ]
      : []),
    // 我女儿叫小雨 / 我家狗叫旺财 / 我老婆的名字叫李娜
    {
      ...base,
      confidence: 0.75,
      pattern: new RegExp(
        `我(?:的)?(?:家)?(?:的)?(?<what>${zh})(?:的名字)?叫(?<value>[\\p{Script=Han}A-Za-z·]{1,6}?)(?=[，,。！!\\s]|$)`,
        "u",
      ),
    },
    // 我有两个孩子 / 我养了一只猫
    {
      ...base,
      confidence: 0.7,
      value: withoutOne,
      pattern: new RegExp(`我(?:家)?(?:有|养了|养着|养)(?<value>(?:一|两|二|三|四|\\d)?(?:个|只|条|位|对)?(?<what>${zh}))`, "u"),
    },
  ];
}

/** Every relationship rule, slot by slot. */
export const RELATION_RULES: readonly CardRule[] = RELATIONS.flatMap(relationRules);
