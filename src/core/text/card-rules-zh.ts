/**
 * The Chinese card rules (seed 003's patterns, widened); card-patterns.ts puts them before the
 * English ones. Negative preferences come before positive ones so "我不喜欢" is not read as "我喜欢".
 */
import { type CardRule, user } from "./card-rule";
import {
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

export const ZH_CARD_RULES: readonly CardRule[] = [
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
];
