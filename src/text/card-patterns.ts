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

const ZH_ROLES =
  "用户|玩机党|开发者|学生|研究生|博士生|工程师|程序员|设计师|老师|教师|医生|护士|律师|会计|产品经理|经理|玩家|创业者|自由职业者|作家|记者|研究员|分析师|架构师|运维|测试|实习生|素食者";
const EN_ROLES =
  "user|developer|dev|engineer|student|gamer|designer|fan|enthusiast|teacher|doctor|nurse|programmer|player|manager|accountant|lawyer|writer|" +
  "artist|researcher|scientist|analyst|architect|consultant|founder|intern|freelancer|vegetarian|vegan|musician|photographer|chef|" +
  "sre|admin|administrator|tester|contractor|beginner|newbie|customer|subscriber|parent|pm|editor|marketer|recruiter|owner|lead";
/** Major cities: "我在杭州工作" says where the user works, not for whom. */
const ZH_CITIES =
  "北京|上海|广州|深圳|杭州|成都|南京|武汉|西安|重庆|天津|苏州|长沙|郑州|青岛|厦门|合肥|济南|沈阳|大连|昆明|福州|无锡|宁波|东莞|佛山|哈尔滨|长春|南昌|贵阳|南宁|香港|澳门|台北";
const CITY = new RegExp(`^(?:${ZH_CITIES})(?:市)?$`, "u");
/** Device words that make "I have an X" a device statement. */
const EN_DEVICES =
  "iphone|ipad|pixel|galaxy|macbook|imac|thinkpad|surface|kindle|chromebook|laptop|phone|tablet|xps|mac|pc|oneplus|xiaomi|huawei";

/** The Chinese value stops at punctuation; Latin words inside may keep their spaces (iPhone 15). */
const ZH_VALUE = "[^，,。！!？?；;]";
const notACity = (m: RegExpExecArray) => (CITY.test(m.groups?.value ?? "") ? "" : (m.groups?.value ?? ""));
const notARole = (m: RegExpExecArray) => (new RegExp(`(?:${ZH_ROLES})$`, "u").test(m.groups?.value ?? "") ? "" : (m.groups?.value ?? ""));

// Rules are tried in order and a clause yields at most one card per slot; negative
// preferences come before positive ones so "我不喜欢" is not read as "我喜欢".
export const CARD_RULES: readonly CardRule[] = [
  // Chinese (seed 003's patterns, widened)
  {
    kind: "profile",
    entity: "user",
    slot: "user_type",
    confidence: 0.85,
    pattern: new RegExp(`我(?:现在|目前|也|还)?是(?:一名|一个|一位|个|名)?(?<value>.{0,20}?(?:${ZH_ROLES}))`, "u"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "name",
    confidence: 0.85,
    pattern: /(?:我叫|我的名字(?:是|叫)|大家(?:都)?叫我|叫我)(?<value>[\p{Script=Han}A-Za-z·]{1,10}?)(?=就行|就好|[，,。！!\s]|$)/u,
  },
  {
    kind: "profile",
    entity: "user",
    slot: "name",
    confidence: 0.7,
    value: notARole,
    pattern: /^我是(?<value>\p{Script=Han}{2,3}?)(?=了?(?:[，,。！!]|$))/u,
  },
  {
    kind: "profile",
    entity: "user",
    slot: "location",
    confidence: 0.8,
    pattern: new RegExp(`我(?:现在|目前)?住在?(?<value>${ZH_VALUE.replace("]", "\\s]")}{1,30})`, "u"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "location",
    confidence: 0.75,
    pattern: new RegExp(`我(?:现在|目前|已经)?(?:搬到|搬去|定居在?)了?(?<value>${ZH_VALUE.replace("]", "\\s]")}{1,30})`, "u"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "location",
    confidence: 0.75,
    pattern: new RegExp(`我(?:现在|目前)?在(?<value>${ZH_VALUE.replace("]", "\\s]")}{1,20}?)(?:生活|定居)`, "u"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "location",
    confidence: 0.75,
    pattern: new RegExp(`我(?:的)?家在(?<value>${ZH_VALUE.replace("]", "\\s]")}{1,20})`, "u"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "location",
    confidence: 0.75,
    pattern: new RegExp(`我(?:现在|目前)?在(?<value>(?:${ZH_CITIES})市?)(?:工作|上班)`, "u"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "employer",
    confidence: 0.75,
    value: notACity,
    pattern: new RegExp(`我(?:现在|目前)?在(?<value>${ZH_VALUE.replace("]", "\\s]")}{1,20}?)(?:工作|上班|做|当|任职)`, "u"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "employer",
    confidence: 0.75,
    pattern: new RegExp(`我(?:刚|刚刚|最近)?(?:加入|入职)了?(?<value>${ZH_VALUE.replace("]", "\\s]")}{1,20})`, "u"),
  },
  {
    kind: "fact",
    entity: "user",
    slot: "device",
    confidence: 0.75,
    pattern: new RegExp(`我(?:的|用的?)(?<what>手机|电脑|设备|平板|笔记本)是?(?<value>${ZH_VALUE}{1,30})`, "u"),
  },
  {
    kind: "fact",
    entity: "user",
    slot: "device",
    confidence: 0.75,
    pattern: /我用(?<value>[A-Za-z][A-Za-z0-9 ]{0,20}?)(?<what>手机|电脑|平板)/u,
  },
  {
    kind: "fact",
    entity: "user",
    slot: "device",
    confidence: 0.7,
    pattern: new RegExp(
      `我(?:用的是|换了|买了|新买了)(?:一台|一部|一个|个|台|部)?(?<value>${ZH_VALUE}{1,20}?(?<what>手机|电脑|平板|笔记本))`,
      "u",
    ),
  },
  {
    kind: "preference",
    entity: "user",
    slot: "dislikes",
    polarity: "negative",
    confidence: 0.75,
    pattern: new RegExp(`我(?:很|最|特别|真的|一直|还是|也|都|平时)*(?:不太喜欢|不喜欢|讨厌|不爱|受不了)(?<value>${ZH_VALUE}{1,30})`, "u"),
  },
  {
    kind: "preference",
    entity: "user",
    slot: "likes",
    polarity: "positive",
    confidence: 0.75,
    pattern: new RegExp(`我(?:的)?(?:最爱|最喜欢|喜欢|爱)的${ZH_VALUE}{1,6}?是(?<value>${ZH_VALUE}{1,30})`, "u"),
  },
  {
    kind: "preference",
    entity: "user",
    slot: "likes",
    polarity: "positive",
    confidence: 0.75,
    pattern: new RegExp(`我的(?:爱好|兴趣)是(?<value>${ZH_VALUE}{1,30})`, "u"),
  },
  {
    kind: "preference",
    entity: "user",
    slot: "likes",
    polarity: "positive",
    confidence: 0.75,
    pattern: new RegExp(`我(?:很|最|特别|真的|一直|还是|又|还|也|都|仍然|依然|现在|平时)*(?:喜欢|爱)(?<value>${ZH_VALUE}{1,30})`, "u"),
  },
  // English
  {
    kind: "profile",
    entity: "user",
    slot: "name",
    confidence: 0.9,
    pattern: /\b(?:my (?:first |full )?name is|my name's|call me|i go by) (?<value>[\p{L}][\p{L}' -]{0,40}?)(?=[,.!;]| and | but |$)/iu,
  },
  {
    kind: "profile",
    entity: "user",
    slot: "name",
    confidence: 0.7,
    pattern: /\b[Ii](?:'m| am) (?<value>\p{Lu}[\p{Ll}'-]+)(?=\s*[,.!;]|\s*$)/u,
  },
  {
    kind: "profile",
    entity: "user",
    slot: "user_type",
    confidence: 0.8,
    pattern: new RegExp(
      `(?:\\bi(?:'m| am| work as)|^as|\\bmy (?:job title|role) is) an? (?<value>(?:[\\w-]+ ){0,3}(?:${EN_ROLES}))\\b(?! of)`,
      "iu",
    ),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "user_type",
    confidence: 0.75,
    pattern: new RegExp(`\\bmy (?:job title|role) is (?<value>(?:[\\w-]+ ){0,3}(?:${EN_ROLES}))\\b`, "iu"),
  },
  {
    kind: "profile",
    entity: "user",
    slot: "location",
    confidence: 0.8,
    pattern:
      /\b(?:i|we)(?:'m| am| are|'re)? (?:(?:currently|now|just|recently|also|still) )*(?:live (?:in|near)|living in|moved (?:back )?to|relocated to|based in|located in) (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so |$)/iu,
  },
  {
    kind: "profile",
    entity: "user",
    slot: "employer",
    confidence: 0.75,
    pattern:
      /\b(?:i(?:'m| am|'ve| have)? (?:(?:currently|now|also|still|been) )*(?:work|worked|working) (?:at|for)|my (?:employer|company) is|i (?:just |recently )?started (?:a new job |working )?at) (?<value>[\p{L}\p{N}][\p{L}\p{N} .&'-]{0,40}?)(?=[,.!;?]| as | and | but | on | in |$)/iu,
  },
  {
    kind: "profile",
    entity: "user",
    slot: "employer",
    confidence: 0.7,
    pattern: /\b(?:[Jj]oined|[Ss]tarted at) (?<value>\p{Lu}[\p{L}\p{N}&.'-]*(?: \p{Lu}[\p{L}\p{N}&.'-]*)*)/u,
  },
  {
    kind: "fact",
    entity: "user",
    slot: "device",
    confidence: 0.7,
    pattern:
      /\b(?:my (?<what>phone|laptop|computer|tablet) is an?|i use an?) (?<value>[\p{L}\p{N}][\p{L}\p{N} .+-]{0,30}?)(?=[,.!;?]| and | but | for |$)/iu,
  },
  {
    kind: "fact",
    entity: "user",
    slot: "device",
    confidence: 0.7,
    pattern: new RegExp(
      `\\bi(?:'m| am)? (?:have|got|bought|switched to|on) an? (?<value>(?:[\\p{L}\\p{N}-]+ ){0,2}(?:${EN_DEVICES})\\b[\\p{L}\\p{N} +-]{0,20}?)(?=[,.!;?]| and | but | for |$)`,
      "iu",
    ),
  },
  {
    kind: "preference",
    entity: "user",
    slot: "dislikes",
    polarity: "negative",
    confidence: 0.7,
    pattern:
      /\bi(?:'m| am)? (?:really )?(?:don't like|do not like|hate|dislike|can't stand|cannot stand|not (?:a|much of a) fan of) (?<value>[\p{L}\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)/iu,
  },
  {
    kind: "preference",
    entity: "user",
    slot: "likes",
    polarity: "positive",
    confidence: 0.7,
    pattern:
      /\b(?:i (?:really )?(?:like|love|enjoy|prefer)|i(?:'m| am) an? (?:big |huge )?fan of|my favou?rite [\p{L} ]{1,20}? is) (?<value>[\p{L}\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)/iu,
  },
];
