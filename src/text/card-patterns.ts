/**
 * Memory-card extraction rules (seed 003, Phase 2), as data. Each rule reads one clause; the
 * `value` group is what the card stores. Chinese rules follow the seed's regexes; English ones
 * are their counterparts. Single-valued slots keep one current value (newest wins); multi-valued
 * slots (likes, goals, children …) collect values.
 *
 * Kinds and slots (entity "user" throughout):
 * | kind         | slots                                              |
 * |--------------|----------------------------------------------------|
 * | profile      | user_type, name, location, employer, age, language (multi) |
 * | fact         | device                                             |
 * | preference   | likes, dislikes, diet (all multi)                  |
 * | relationship | partner, child (multi), pet (multi)                |
 * | event        | event (multi: milestones, appointments, trips), birthday |
 * | goal         | goal (multi)                                       |
 */
import { type CardRule, user } from "./card-rule";
import { RELATION_RULES } from "./card-relations";
import {
  EN_ADVERBS,
  EN_DEVICES,
  EN_DIET_FOODS,
  EN_PASTIMES,
  EN_PROPER,
  EN_ROLES,
  GOAL_VERBS,
  ZH_BRANDS,
  ZH_CITIES,
  ZH_DEGREE,
  ZH_DIET_FOODS,
  ZH_ROLES,
  ZH_VALUE,
  ZH_WHEN,
  ZH_WORD,
  notACity,
  notARole,
  zhDiet,
} from "./card-words";

// Rules are tried in order and a clause yields at most one card per slot; negative
// preferences come before positive ones so "我不喜欢" is not read as "我喜欢".
export const CARD_RULES: readonly CardRule[] = [
  // Chinese (seed 003's patterns, widened)
  // 我吃素 / 我是素食者 / 我是素食主义者 / 我只吃清真
  user(
    "preference",
    "diet",
    0.8,
    new RegExp(`我${ZH_WHEN}(?:是(?:一[个名位])?|只)?(?:吃)?(?<value>素食|纯素|素(?![人颜材描质])|清真)`, "u"),
    { value: zhDiet },
  ),
  // 我不吃猪肉: a food group left out is a diet; 我不吃香菜 is a taste, not a diet
  user("preference", "diet", 0.75, new RegExp(`我${ZH_WHEN}(?:从来)?不吃(?<value>${ZH_DIET_FOODS})`, "u"), {
    value: (m) => `不吃${m.groups?.value ?? ""}`,
  }),
  // 我是做前端的 / 我从事金融行业
  user("profile", "user_type", 0.75, new RegExp(`我(?:是做|从事)(?<value>${ZH_WORD}{1,10}?)(?:的|工作|行业)`, "u")),
  user(
    "profile",
    "user_type",
    0.85,
    new RegExp(`我(?:现在|目前|也|还|的职业|的工作|的身份)?是(?:一名|一个|一位|个|名)?(?<value>.{0,20}?(?:${ZH_ROLES}))`, "u"),
  ),
  user(
    "profile",
    "name",
    0.85,
    /(?:我叫|我的名字(?:是|叫)|大家(?:都)?叫我|叫我)(?<value>[\p{Script=Han}A-Za-z·]{1,10}?)(?=就行|就好|[，,。！!\s]|$)/u,
  ),
  user("profile", "name", 0.7, /^我是(?<value>\p{Script=Han}{2,3}?)(?=了?(?:[，,。！!]|$))/u, { value: notARole }),
  user("profile", "location", 0.8, new RegExp(`我(?:现在|目前)?(?:住在?|现居|居住在|常住)(?<value>${ZH_WORD}{1,30})`, "u")),
  user("profile", "location", 0.75, new RegExp(`我(?:们)?${ZH_WHEN}(?:搬到|搬去|搬家到|定居在?)了?(?<value>${ZH_WORD}{1,30})`, "u")),
  // 我在成都生活 / 我在北京住了十年
  user("profile", "location", 0.75, new RegExp(`我(?:现在|目前|一直)?在(?<value>${ZH_WORD}{1,20}?)(?:生活|定居|住|待)`, "u")),
  user("profile", "location", 0.75, new RegExp(`我(?:的)?家(?:住)?在(?<value>${ZH_WORD}{1,20})`, "u")),
  // 我在杭州工作 / 我现在在上海 / 我人在深圳: only a known city, since 我在开会 is no place
  user(
    "profile",
    "location",
    0.75,
    new RegExp(`我(?:现在|目前|人)*在(?<value>(?:${ZH_CITIES})市?)(?:工作|上班|读书|上学|读|念|(?=\\p{P}*$))`, "u"),
  ),
  // 我在南京读研究生 / 我在读博士: what one studies for is a user type
  user(
    "profile",
    "user_type",
    0.75,
    /我(?:现在|目前|正)?在(?:\p{Script=Han}{1,10}?)?(?:读|念|攻读)(?<value>研究生|博士|硕士|本科|大学|高中|初中)/u,
    {
      value: (m) =>
        ({ 博士: "博士生", 硕士: "硕士生", 本科: "本科生", 大学: "大学生", 高中: "高中生", 初中: "初中生" })[m.groups?.value ?? ""] ??
        m.groups?.value ??
        "",
    },
  ),
  user("profile", "employer", 0.75, new RegExp(`我(?:现在|目前)?在(?<value>${ZH_WORD}{1,20}?)(?:工作|上班|做|当|任职|实习)`, "u"), {
    value: notACity,
  }),
  user(
    "profile",
    "employer",
    0.75,
    new RegExp(`我(?:现在|目前|刚|刚刚|最近)?(?:加入|入职|跳槽到|跳槽去|就职于|任职于|供职于)了?(?<value>${ZH_WORD}{1,20})`, "u"),
  ),
  // 我在华为做硬件工程师: the role after the employer
  user(
    "profile",
    "user_type",
    0.75,
    new RegExp(`我(?:现在|目前)?在${ZH_WORD}{1,20}?(?:做|当)(?<value>${ZH_WORD}{0,8}?(?:${ZH_ROLES}))`, "u"),
  ),
  // 我是华为的员工
  user("profile", "employer", 0.75, new RegExp(`我是(?<value>${ZH_WORD}{1,20}?)的(?:员工|职员|雇员)`, "u")),
  // 我的手机是小米14 / 我手机是华为(的): 是 is required, so 我的手机坏了 states no device
  user(
    "fact",
    "device",
    0.75,
    new RegExp(`我(?:的|用的?)?(?<what>手机|电脑|设备|平板|笔记本)(?:是|用的是)(?<value>${ZH_VALUE}{1,30})`, "u"),
    { detail: "device", value: (m) => (m.groups?.value ?? "").replace(/的$/u, "") },
  ),
  user("fact", "device", 0.75, /我用(?<value>[A-Za-z][A-Za-z0-9 ]{0,20}?)(?<what>手机|电脑|平板)/u, { detail: "device" }),
  // 我用的是安卓手机 / 我最近换了华为手机; 我换了新手机 names no device
  user(
    "fact",
    "device",
    0.7,
    new RegExp(
      `我${ZH_WHEN}(?:用的是|换了|换成了|买了|新买了|入手了|用)(?:一台|一部|一个|个|台|部)?(?<value>${ZH_VALUE}{1,20}?(?<what>手机|电脑|平板|笔记本))`,
      "u",
    ),
    { detail: "device", value: (m) => (/^新?(?:手机|电脑|平板|笔记本)$/u.test(m.groups?.value ?? "") ? "" : (m.groups?.value ?? "")) },
  ),
  // 我用的是华为Mate60 / 我刚买了一台MacBook: a known brand stands for the device word
  user(
    "fact",
    "device",
    0.7,
    new RegExp(
      `我${ZH_WHEN}(?:用的是|换了|换成了|买了|新买了|入手了|用)(?:一台|一部|一个|个|台|部)?(?:新的|新)?(?<value>(?:${ZH_BRANDS})[\\p{L}\\p{N} +-]{0,15})`,
      "iu",
    ),
    { detail: "device" },
  ),
  user(
    "preference",
    "dislikes",
    0.75,
    new RegExp(`我${ZH_DEGREE}(?:不太喜欢|不喜欢|讨厌|不爱|受不了|反感|厌恶)(?<value>${ZH_VALUE}{1,30})`, "u"),
    { polarity: "negative" },
  ),
  user("preference", "likes", 0.75, new RegExp(`我(?:的)?(?:最爱|最喜欢|喜欢|爱)的${ZH_VALUE}{1,6}?是(?<value>${ZH_VALUE}{1,30})`, "u"), {
    polarity: "positive",
  }),
  user("preference", "likes", 0.75, new RegExp(`我的(?:爱好|兴趣|兴趣爱好)是(?<value>${ZH_VALUE}{1,30})`, "u"), { polarity: "positive" }),
  user("preference", "likes", 0.75, new RegExp(`我${ZH_DEGREE}(?:喜欢|爱|热爱|偏爱|迷上了|习惯)(?<value>${ZH_VALUE}{1,30})`, "u"), {
    polarity: "positive",
  }),
  // 我对摄影很感兴趣
  user("preference", "likes", 0.7, new RegExp(`我对(?<value>${ZH_VALUE}{1,20}?)${ZH_DEGREE}感兴趣`, "u"), { polarity: "positive" }),
  // 我今年30岁 / 我30了
  user("profile", "age", 0.8, /我(?:今年|现在)?(?:已经)?(?<value>\d{1,3}|[一二三四五六七八九十]{1,3})(?:岁|周岁)/u),
  // 我的母语是粤语 / 我会说英语和日语
  user("profile", "language", 0.75, new RegExp(`我(?:的母语是|会说|会讲|说)(?<value>${ZH_WORD}{1,12}?(?:语|话|文))(?=$|\\p{P}|，)`, "u")),
  user("event", "birthday", 0.8, new RegExp(`我(?:的)?生日是(?<value>${ZH_WORD}{1,12})`, "u")),
  // 我下个月结婚 / 我去年毕业了 / 我明天有个面试 / 我下周去日本出差 (plans, 打算, are goals)
  user(
    "event",
    "event",
    0.7,
    new RegExp(
      `我(?:们)?${ZH_WHEN}(?:[一二三四五六日天末]|周[一二三四五六日末])?(?:要|会)?(?:有个?|有一个)?(?<value>结婚|订婚|离婚|毕业|退休|升职|生了?(?:孩子|宝宝)|当(?:爸爸|妈妈)|面试|考试|做手术|手术|体检|去${ZH_WORD}{1,10}?(?:出差|旅游|旅行|度假|玩))`,
      "u",
    ),
  ),
  user(
    "goal",
    "goal",
    0.75,
    new RegExp(`我(?:今年|明年|新的一年)?的(?:新年|今年|明年)?(?:目标|梦想|计划|新年愿望|愿望)是(?<value>${ZH_VALUE}{1,30})`, "u"),
  ),
  // 我想学日语 / 我打算明年考研 / 我正在学吉他; not 我想退款 (a request) nor 我在学校 (a place)
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `我${ZH_WHEN}(?:(?:想|打算|计划|准备|希望|决定|梦想|正在|在)${ZH_WHEN})+(?<value>(?:学(?!校)|备考|考(?!虑)|找工作|减肥|瘦|攒钱|存钱|跑(?:马拉松|半马|全马)|转行|换工作|出国|留学|移民|戒|提高|练|创业|搬到|搬去|去${ZH_WORD}{1,10}?(?:旅游|旅行|留学|定居))${ZH_VALUE}{0,20})`,
      "u",
    ),
  ),
  // English
  user(
    "profile",
    "name",
    0.9,
    /\b(?:my (?:first |full )?name is|my name's|call me|calls me|i go by|i(?:'m| am) called) (?<value>[\p{L}][\p{L}' -]{0,40}?)(?=[,.!;]| and | but |$)/iu,
  ),
  user("profile", "name", 0.7, /\b[Ii](?:'m| am) (?<value>\p{Lu}[\p{Ll}'-]+)(?=\s*[,.!;]|\s*$)/u),
  // I'm vegetarian / I'm a vegan / I'm on a keto diet / I eat halal — before user_type: a diet is no role
  user(
    "preference",
    "diet",
    0.8,
    /\bi(?:'m| am|'ve been| have been)? (?:(?:a|an|now|currently|strictly|mostly|fully|also|still|only|eat|keep|on a|on the) )*(?<value>vegetarian|vegan|pescatarian|pescetarian|keto|paleo|gluten-free|dairy-free|plant-based|halal|kosher)\b(?! (?:restaurants?|recipes?|options?|menus?)\b)/iu,
  ),
  user(
    "profile",
    "user_type",
    0.8,
    new RegExp(
      `(?:\\bi(?:'m| am| work as|'ve been| have been|'m working as| am working as)|^as|\\bmy (?:job title|role) is) (?:an?|the) (?<value>(?:[\\w-]+ ){0,4}(?:${EN_ROLES}))\\b(?!(?<=fan|enthusiast) of)`,
      "iu",
    ),
  ),
  user("profile", "user_type", 0.75, new RegExp(`\\bmy (?:job title|role) is (?<value>(?:[\\w-]+ ){0,3}(?:${EN_ROLES}))\\b`, "iu")),
  // Roles said as adjectives
  user(
    "profile",
    "user_type",
    0.75,
    /\bi(?:'m| am) (?:now |currently )?(?<value>retired|self-employed|unemployed|a stay-at-home (?:mom|dad|parent))\b/iu,
  ),
  user(
    "profile",
    "location",
    0.8,
    /\b(?:i|we)(?:'m| am| are|'re|'ve been| have been)? (?:(?:currently|now|just|recently|also|still) )*(?:live (?:(?:just )?(?:in|near|outside))|living (?:(?:just )?(?:in|near|outside))|moved (?:back )?to|relocated to|based in|located in|reside in|residing in|staying in|(?:bought|own|rent|rented) (?:a|an|our|my) (?:new )?(?:house|home|apartment|flat|condo|place) in) (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so | since | in (?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|\d{4})\b|$)/iu,
  ),
  // I'm a designer based in Berlin / Currently living in Lisbon (no subject, at the start)
  user(
    "profile",
    "location",
    0.75,
    /(?:\bi(?:'m| am)\b[^,.;]{0,40}? based (?:in|out of)|^(?:currently |now )?(?:living|based) in) (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so | since |$)/iu,
  ),
  // I've lived in Denver since 2015 (a plain "I lived in" is past: no card)
  user(
    "profile",
    "location",
    0.75,
    /\b(?:i|we)(?:'ve| have) (?:(?:always|now|also) )?lived in (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so | since |$)/iu,
  ),
  // "there" after an end ("I don't live there anymore"): the current location (see cards.ts)
  user("profile", "location", 0.75, /\b(?:i|we)(?:'m| am| are|'re)? (?:live|living) (?<value>there|here)\b/iu),
  user(
    "profile",
    "employer",
    0.75,
    /\b(?:i(?:'m| am|'ve| have)? (?:(?:currently|now|also|still|been) )*(?:work|worked|working|intern|interning)(?: (?:remotely|full-time|part-time|in [\p{L}]+))? (?:at|for)|i (?:work|worked) as an? [\p{L} -]{1,40}? at|my (?:employer|company) is|i(?:'m| am) employed (?:at|by)|i (?:just |recently )?(?:got (?:a job|hired|an offer) (?:at|by|with|from)|started (?:a new job |working )?at)) (?<value>[\p{L}\p{N}][\p{L}\p{N} .&'-]{0,40}?)(?=[,.!;?]| as | and | but | on | in | since |$)/iu,
  ),
  user("profile", "employer", 0.7, /\b(?:[Jj]oined|[Ss]tarted at) (?<value>\p{Lu}[\p{L}\p{N}&.'-]*(?: \p{Lu}[\p{L}\p{N}&.'-]*)*)/u),
  // "there" after an end ("I don't work there anymore"): the current employer
  user("profile", "employer", 0.75, /\bi(?:'m| am)? (?:work|working) (?<value>there|here)\b/iu),
  user(
    "fact",
    "device",
    0.7,
    /\b(?:my (?<what>phone|laptop|computer|tablet) is an?|i (?:(?:mainly|mostly|usually|also|still|now) )?use an?|i(?:'m| am) using an?) (?<value>[\p{L}\p{N}][\p{L}\p{N} .+-]{0,30}?)(?=[,.!;?]| and | but | for |$)/iu,
    { detail: "device" },
  ),
  user(
    "fact",
    "device",
    0.7,
    new RegExp(
      `\\bi(?:'m| am)? ${EN_ADVERBS}(?:have|got|bought|switched (?:from [\\p{L}\\p{N} ]{1,20}? )?to|upgraded (?:from [\\p{L}\\p{N} ]{1,20}? )?to|on) an? (?:(?:brand )?new )?(?<value>(?:[\\p{L}\\p{N}-]+ ){0,2}(?:${EN_DEVICES})\\b[\\p{L}\\p{N} +-]{0,20}?)(?=[,.!;?]| and | but | for |$)`,
      "iu",
    ),
    { detail: "device" },
  ),
  user(
    "preference",
    "dislikes",
    0.7,
    new RegExp(
      `\\bi(?:'m| am)? ${EN_ADVERBS}(?:don't like|do not like|hate|dislike|detest|loathe|can't stand|cannot stand|not (?:a|much of a) (?:big |huge )?fan of) (?:it when )?(?<value>[\\p{L}\\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
    { polarity: "negative" },
  ),
  user(
    "preference",
    "likes",
    0.7,
    new RegExp(
      `\\b(?:i ${EN_ADVERBS}(?:like|love|enjoy|prefer|adore)|i(?:'d| would) (?:rather|prefer)|i(?:'m| am) ${EN_ADVERBS}(?:an? (?:big |huge )?fan of|passionate about|fond of|obsessed with|crazy about)|my favou?rite [\\p{L} ]{1,20}? is|my hobb(?:y is|ies are)) (?<value>[\\p{L}\\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
    { polarity: "positive" },
  ),
  // Sushi is my favorite food
  user(
    "preference",
    "likes",
    0.7,
    /^(?!(?:this|that|it|these|those|which|what)\b)(?<value>[\p{L}\p{N}][^,.!;?]{0,40}?) (?:is|are) my (?:absolute )?favou?rite\b/iu,
    { polarity: "positive" },
  ),
  // I don't eat pork / I never eat red meat → "no pork"
  user(
    "preference",
    "diet",
    0.75,
    new RegExp(
      `\\bi (?:don't|do not|never|can't|cannot) (?:eat|drink) (?:any )?(?<value>${EN_DIET_FOODS}|alcohol|caffeine|coffee|milk)\\b`,
      "iu",
    ),
    { value: (m) => `no ${m.groups?.value ?? ""}` },
  ),
  // I play the guitar / I play tennis on weekends: an instrument or a sport is a pastime
  user("preference", "likes", 0.7, new RegExp(`\\bi ${EN_ADVERBS}play (?:the )?(?<value>${EN_PASTIMES})\\b`, "iu"), {
    polarity: "positive",
  }),
  user("profile", "age", 0.8, /\bi(?:'m| am| just turned) (?<value>\d{1,3})(?: years old|(?=[,.!;?]|$))/iu),
  // I speak French and English / my native language is Portuguese / I'm fluent in German
  user(
    "profile",
    "language",
    0.75,
    /\b(?:[Ii] (?:(?:also|mostly|only) )?speak|[Ii](?:'m| am) fluent in|[Mm]y (?:native|first|mother) (?:language|tongue) is) (?<value>\p{Lu}[\p{L} ,]{1,40}?)(?=[.!;?]| at | with | but |$)/u,
  ),
  ...RELATION_RULES,
  user(
    "event",
    "birthday",
    0.8,
    /\b(?:my birthday is|i was born on) (?:on )?(?<value>(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d)[\p{L}\p{N} ]{0,20}?)(?=[,.!;?]| and | but |$)/iu,
  ),
  // Milestones: I just got married / I graduated from MIT / I had a baby
  user(
    "event",
    "event",
    0.75,
    new RegExp(
      `\\b[Ii](?:'ve| have)? ${EN_ADVERBS}(?<value>got (?:married|engaged|divorced|promoted)|graduated(?: from (?:the )?${EN_PROPER})?|retired|had (?:a baby(?: (?:boy|girl))?|twins|surgery)|became an? (?:dad|mom|father|mother|parent|grandparent|citizen))\\b`,
      "u",
    ),
  ),
  // Milestones coming: I'm getting married in June / I'm having a baby ("I'm retired" is a user type)
  user(
    "event",
    "event",
    0.75,
    new RegExp(
      `\\b[Ii](?:'m| am|'ll be| will be) ${EN_ADVERBS}(?<value>getting (?:married|engaged|divorced)|having (?:a baby|surgery)|expecting (?:a baby|a child|my first (?:baby|child)|twins)|graduating|retiring)\\b`,
      "u",
    ),
  ),
  // I have a job interview on Friday / I have a flight to Tokyo tomorrow: a time must follow
  user(
    "event",
    "event",
    0.7,
    new RegExp(
      `\\b[Ii] (?:have|'ve got|got) (?:an? |my )?(?<value>(?:job |final |driving |doctor's |dentist |dental )?(?:interview|exams?|appointment|surgery|flight|trip|vacation)(?: to ${EN_PROPER})?)(?= (?:on|at|in|next|this|tomorrow|today|tonight|coming up)\\b)`,
      "u",
    ),
  ),
  // I'm flying to Tokyo next week / I'm visiting Paris in May: a named destination
  user(
    "event",
    "event",
    0.7,
    new RegExp(
      `\\b[Ii](?:'m| am|'ll be| will be) (?<value>(?:(?:going|travell?ing|flying|heading|driving)(?: on (?:vacation|holiday|a trip))? to|visiting) ${EN_PROPER})\\b`,
      "u",
    ),
  ),
  user(
    "goal",
    "goal",
    0.75,
    /\bmy (?:main |big |biggest |long-term |short-term |current |personal )?(?:goal|aim|dream|resolution|ambition)(?: for (?:this|next) year| this year)? is to (?<value>[\p{L}\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)/iu,
  ),
  // I'm planning to move to Canada / I'm saving up for a house / I'm training for a marathon
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `\\bi(?:'m| am) ${EN_ADVERBS}(?<value>(?:planning|hoping|aiming) to [\\p{L}\\p{N}][^,.!;?]{0,40}?|(?:saving(?: up)?|training|preparing|studying) for [\\p{L}\\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
    { value: (m) => (m.groups?.value ?? "").replace(/^(?:planning|hoping|aiming) to /iu, "") },
  ),
  // I want to learn Rust / I'm trying to lose weight: only verbs of a goal ("I want to cancel", "I'm trying to deploy" are tasks)
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `\\bi(?: ${EN_ADVERBS}(?:want|hope|plan|intend|aim|dream)|(?:'d| would) ${EN_ADVERBS}(?:like|love)|(?:'m| am) ${EN_ADVERBS}trying) to (?<value>(?:${GOAL_VERBS})\\b[^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
  ),
  // I'm learning Japanese → "learn Japanese", the same goal as "I want to learn Japanese"
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `\\bi(?:'m| am) ${EN_ADVERBS}learning (?!(?:that|a lot|so much|more)\\b)(?<value>[\\p{L}\\p{N}][^,.!;?]{0,30}?)(?=[,.!;?]| at | in | with | for |$)`,
      "iu",
    ),
    { value: (m) => `learn ${m.groups?.value ?? ""}` },
  ),
];
