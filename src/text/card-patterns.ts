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
export type CardKind = "fact" | "preference" | "event" | "profile" | "relationship" | "goal";
export type Polarity = "positive" | "negative";

export interface CardRule {
  kind: CardKind;
  entity: string;
  slot: string;
  pattern: RegExp;
  /** Builds the value from the match (default: the `value` group). */
  value?: (m: RegExpExecArray) => string;
  /** The `extra` key that keeps the `what` group (the kind of device, the relation word). */
  detail?: string;
  polarity?: Polarity;
  confidence: number;
}

/** Slots that hold a set of values rather than one current value. */
export const MULTI_VALUED_SLOTS: ReadonlySet<string> = new Set(["likes", "dislikes", "diet", "language", "child", "pet", "event", "goal"]);

const ZH_ROLES =
  "用户|玩机党|开发者|开发(?!者)|学生|研究生|博士生|工程师|程序员|设计师|老师|教师|医生|护士|律师|会计|产品经理|经理|玩家|创业者|自由职业者|作家|记者|研究员|分析师|架构师|运维|测试|实习生|" +
  "粉丝|果粉|米粉|球迷|歌迷|宝妈|宝爸|家长|公务员|销售|主播|博主|司机|厨师|上班族|(?:前端|后端|全栈)(?!开发|工程)";
const EN_ROLES =
  "user|developer|dev|engineer|student|gamer|designer|fan|enthusiast|teacher|doctor|nurse|programmer|player|manager|accountant|lawyer|writer|" +
  "artist|researcher|scientist|analyst|architect|consultant|founder|intern|freelancer|musician|photographer|chef|" +
  "sre|admin|administrator|tester|contractor|beginner|newbie|customer|subscriber|parent|pm|editor|marketer|recruiter|owner|lead|" +
  "mom|dad|mother|father|retiree|homeowner|landlord|pharmacist|electrician|plumber|mechanic|driver|pilot|cook|baker|farmer|carpenter|" +
  "dentist|vet|veterinarian|therapist|professor|lecturer|tutor|coach|trainer|investor|trader|entrepreneur|ceo|cto|cfo|director|" +
  "specialist|technician|assistant|clerk|cashier|barista|streamer|youtuber|blogger|creator|runner|cyclist";
/** Major cities: "我在杭州工作" says where the user works, not for whom. */
const ZH_CITIES =
  "北京|上海|广州|深圳|杭州|成都|南京|武汉|西安|重庆|天津|苏州|长沙|郑州|青岛|厦门|合肥|济南|沈阳|大连|昆明|福州|无锡|宁波|东莞|佛山|哈尔滨|长春|南昌|贵阳|南宁|香港|澳门|台北";
const ZH_COUNTRIES = "中国|美国|日本|韩国|英国|法国|德国|加拿大|澳洲|澳大利亚|新加坡|新西兰|泰国|越南|俄罗斯|意大利|西班牙|荷兰|瑞士|印度";
/** A Chinese place: a listed city or country, or a name ending in a place suffix (湖南省, 通州区). */
export const ZH_PLACE = new RegExp(`^(?:(?:${ZH_CITIES})市?|${ZH_COUNTRIES}|\\p{Script=Han}{1,6}(?:省|市|县|区|州))$`, "u");
const CITY = new RegExp(`^(?:${ZH_CITIES})(?:市)?$`, "u");
/**
 * Places an English "I left X" can mean (US states, countries, major cities), lower case: "I left
 * Austin" ends a location, "I left Google" an employer. Deliberately short: an unknown name reads
 * as an employer, as "I left Microsoft" does.
 */
export const EN_PLACES: ReadonlySet<string> = new Set(
  (
    "alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|georgia|hawaii|idaho|illinois|indiana|iowa|" +
    "kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|" +
    "new hampshire|new jersey|new mexico|new york|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania|rhode island|" +
    "south carolina|south dakota|tennessee|texas|utah|vermont|virginia|washington|west virginia|wisconsin|wyoming|" +
    "the us|the usa|the states|america|canada|mexico|brazil|argentina|chile|colombia|peru|the uk|britain|england|scotland|wales|" +
    "ireland|france|germany|spain|portugal|italy|the netherlands|holland|belgium|switzerland|austria|sweden|norway|denmark|finland|" +
    "poland|greece|turkey|russia|ukraine|israel|egypt|nigeria|kenya|india|pakistan|china|japan|korea|south korea|taiwan|" +
    "singapore|malaysia|thailand|vietnam|indonesia|the philippines|australia|new zealand|" +
    "austin|denver|seattle|portland|san francisco|los angeles|la|san diego|san jose|chicago|boston|new york city|nyc|brooklyn|" +
    "manhattan|miami|atlanta|dallas|houston|phoenix|philadelphia|detroit|minneapolis|salt lake city|las vegas|nashville|" +
    "new orleans|pittsburgh|baltimore|raleigh|charlotte|orlando|tampa|sacramento|kansas city|st. louis|cleveland|columbus|" +
    "cincinnati|indianapolis|milwaukee|toronto|vancouver|montreal|calgary|ottawa|london|manchester|birmingham|edinburgh|glasgow|" +
    "dublin|paris|lyon|berlin|munich|hamburg|frankfurt|amsterdam|rotterdam|brussels|zurich|geneva|vienna|prague|budapest|" +
    "warsaw|stockholm|oslo|copenhagen|helsinki|madrid|barcelona|lisbon|porto|rome|milan|naples|athens|istanbul|moscow|kyiv|" +
    "tel aviv|cairo|lagos|nairobi|johannesburg|mumbai|delhi|new delhi|bangalore|bengaluru|hyderabad|chennai|pune|beijing|" +
    "shanghai|shenzhen|guangzhou|hangzhou|chengdu|tokyo|osaka|kyoto|seoul|taipei|hong kong|bangkok|kuala lumpur|jakarta|" +
    "manila|hanoi|sydney|melbourne|brisbane|perth|auckland|wellington|mexico city|sao paulo|são paulo|rio de janeiro|" +
    "buenos aires|santiago|lima|bogota|dubai"
  ).split("|"),
);
/** Verbs that make "I want to …" a goal rather than a request. */
const GOAL_VERBS =
  "learn|become|get better at|improve|master|run|lose|save|start|switch|change careers|move to|move abroad|travel|visit|retire|" +
  "pass|finish|write|launch|quit|study|speak|get fit|get promoted|eat healthier|read more";
/** Instruments and sports: "I play X" says what the user likes doing. */
const EN_PASTIMES =
  "guitar|piano|violin|cello|drums|bass|ukulele|saxophone|flute|tennis|basketball|soccer|football|baseball|golf|volleyball|badminton|" +
  "table tennis|ping pong|hockey|cricket|rugby|chess|poker|video games|board games|pickleball|squash";
/** Device brands and lines a Chinese statement names without a device word (我用的是华为Mate60). */
const ZH_BRANDS =
  "华为|小米|红米|苹果|三星|OPPO|vivo|荣耀|一加|魅族|联想|戴尔|惠普|华硕|iPhone|iPad|MacBook|Mac|Pixel|Galaxy|ThinkPad|Surface|Kindle";
/** Device words that make "I have an X" a device statement. */
const EN_DEVICES =
  "iphone|ipad|pixel|galaxy|macbook|imac|thinkpad|surface|kindle|chromebook|laptop|phone|tablet|xps|mac|pc|oneplus|xiaomi|huawei";

/** The Chinese value stops at punctuation; Latin words inside may keep their spaces (iPhone 15). */
const ZH_VALUE = "[^，,。！!？?；;]";
/** The same without spaces: a place or a company name. */
const ZH_WORD = "[^，,。！!？?；;\\s]";
/** Adverbs and time words between 我 and the verb (我最近换了, 我明年打算). */
export const ZH_WHEN = "(?:现在|目前|最近|刚|刚刚|已经|一直|今年|去年|明年|上个月|下个月|下周|明天|马上|快|也|还|都|就)*";
/** Degree words before a Chinese preference verb (我很喜欢, 我比较讨厌). */
const ZH_DEGREE = "(?:最近|很|最|特别|真的|一直|还是|又|还|也|都|仍然|依然|现在|平时|比较|非常|超|超级|挺|蛮|更|尤其|十分)*";
/** Adverbs between an English subject and its verb (I really like, I just got). */
export const EN_ADVERBS =
  "(?:(?:really|also|absolutely|totally|genuinely|usually|generally|always|especially|still|just|recently|finally|do|kind of|kinda|now|currently) )*";
/** A person's name (Anna, Mary-Jane, Anna Lee); no apostrophe, so "Leo's school" names Leo. */
const EN_NAME = "\\p{Lu}\\p{Ll}+(?:-\\p{Lu}\\p{Ll}+)?(?: \\p{Lu}\\p{Ll}+)?";
/** A proper name of a place or an organisation (Tokyo, New York City, MIT, University of Texas). */
export const EN_PROPER = "\\p{Lu}[\\p{L}\\p{N}&.'-]*(?: (?:of |de )?\\p{Lu}[\\p{L}\\p{N}&.'-]*)*";

const notACity = (m: RegExpExecArray) => (CITY.test(m.groups?.value ?? "") ? "" : (m.groups?.value ?? ""));
/** 我是王芳 names; 我是学生 and 我是上海人 (an origin) do not. */
const notARole = (m: RegExpExecArray) =>
  new RegExp(`(?:${ZH_ROLES}|人)$`, "u").test(m.groups?.value ?? "") ? "" : (m.groups?.value ?? "");
/** "a dog" → "dog", 一只猫 → 猫; a count other than one stays (two kids, 两个孩子). */
const withoutOne = (m: RegExpExecArray) => (m.groups?.value ?? "").replace(/^(?:(?:a|an|one) |一?[个只条位])/iu, "");
/** Food groups whose absence is a diet ("I don't eat pork", 我不吃牛肉). */
const EN_DIET_FOODS = "pork|beef|meat|red meat|fish|seafood|dairy|gluten|eggs|shellfish|nuts";
const ZH_DIET_FOODS = "猪肉|牛肉|羊肉|肉|荤|海鲜|鱼|鸡蛋|蛋|奶制品|乳制品";
/** Every way of saying vegetarian in Chinese is one diet (吃素, 素食者, 素食主义者). */
const zhDiet = (m: RegExpExecArray) => ({ 纯素: "纯素", 清真: "清真" })[m.groups?.value ?? ""] ?? "素食";

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

/** A rule about the user (every rule's entity). */
const user = (kind: CardKind, slot: string, confidence: number, pattern: RegExp, more: Partial<CardRule> = {}): CardRule => ({
  kind,
  entity: "user",
  slot,
  confidence,
  pattern,
  ...more,
});

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
  user("profile", "location", 0.75, new RegExp(`我(?:现在|目前|已经)?(?:搬到|搬去|搬家到|定居在?)了?(?<value>${ZH_WORD}{1,30})`, "u")),
  // 我在成都生活 / 我在北京住了十年
  user("profile", "location", 0.75, new RegExp(`我(?:现在|目前|一直)?在(?<value>${ZH_WORD}{1,20}?)(?:生活|定居|住|待)`, "u")),
  user("profile", "location", 0.75, new RegExp(`我(?:的)?家(?:住)?在(?<value>${ZH_WORD}{1,20})`, "u")),
  // 我在杭州工作 / 我现在在上海 / 我人在深圳: only a known city, since 我在开会 is no place
  user("profile", "location", 0.75, new RegExp(`我(?:现在|目前|人)*在(?<value>(?:${ZH_CITIES})市?)(?:工作|上班|(?=\\p{P}*$))`, "u")),
  user("profile", "employer", 0.75, new RegExp(`我(?:现在|目前)?在(?<value>${ZH_WORD}{1,20}?)(?:工作|上班|做|当|任职|实习)`, "u"), {
    value: notACity,
  }),
  user(
    "profile",
    "employer",
    0.75,
    new RegExp(`我(?:现在|目前|刚|刚刚|最近)?(?:加入|入职|跳槽到|跳槽去|就职于|任职于|供职于)了?(?<value>${ZH_WORD}{1,20})`, "u"),
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
      `我${ZH_WHEN}(?:用的是|换了|换成了|买了|新买了|入手了)(?:一台|一部|一个|个|台|部)?(?<value>${ZH_VALUE}{1,20}?(?<what>手机|电脑|平板|笔记本))`,
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
      `我${ZH_WHEN}(?:用的是|换了|换成了|买了|新买了|入手了)(?:一台|一部|一个|个|台|部)?(?<value>(?:${ZH_BRANDS})[\\p{L}\\p{N} +-]{0,15})`,
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
      `我${ZH_WHEN}(?:要|会)?(?:有个?|有一个)?(?<value>结婚|订婚|离婚|毕业|退休|升职|生了?(?:孩子|宝宝)|当(?:爸爸|妈妈)|面试|考试|手术|体检|去${ZH_WORD}{1,10}?(?:出差|旅游|旅行|度假|玩))`,
      "u",
    ),
  ),
  user("goal", "goal", 0.75, new RegExp(`我(?:今年|明年|新的一年)?的(?:目标|梦想|计划|新年愿望|愿望)是(?<value>${ZH_VALUE}{1,30})`, "u")),
  // 我想学日语 / 我打算明年考研 / 我正在学吉他; not 我想退款 (a request) nor 我在学校 (a place)
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `我${ZH_WHEN}(?:(?:想|打算|计划|准备|希望|决定|梦想|正在|在)${ZH_WHEN})+(?<value>(?:学(?!校)|考(?!虑)|减肥|瘦|攒钱|存钱|跑(?:马拉松|半马|全马)|转行|换工作|出国|留学|移民|戒|提高|练|创业|搬到|搬去|去${ZH_WORD}{1,10}?(?:旅游|旅行|留学|定居))${ZH_VALUE}{0,20})`,
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
      `(?:\\bi(?:'m| am| work as|'ve been| have been|'m working as| am working as)|^as|\\bmy (?:job title|role) is) (?:an?|the) (?<value>(?:[\\w-]+ ){0,3}(?:${EN_ROLES}))\\b(?!(?<=fan|enthusiast) of)`,
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
    /\b(?:i|we)(?:'m| am| are|'re|'ve been| have been)? (?:(?:currently|now|just|recently|also|still) )*(?:live (?:in|near)|living in|moved (?:back )?to|relocated to|based in|located in|reside in|residing in|staying in) (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so | since |$)/iu,
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
    /\b(?:i(?:'m| am|'ve| have)? (?:(?:currently|now|also|still|been) )*(?:work|worked|working|intern|interning)(?: (?:remotely|full-time|part-time|in [\p{L}]+))? (?:at|for)|my (?:employer|company) is|i(?:'m| am) employed (?:at|by)|i (?:just |recently )?(?:got (?:a job|hired|an offer) (?:at|by|with|from)|started (?:a new job |working )?at)) (?<value>[\p{L}\p{N}][\p{L}\p{N} .&'-]{0,40}?)(?=[,.!;?]| as | and | but | on | in | since |$)/iu,
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
      `\\bi(?:'m| am)? ${EN_ADVERBS}(?:have|got|bought|switched to|upgraded to|on) an? (?:(?:brand )?new )?(?<value>(?:[\\p{L}\\p{N}-]+ ){0,2}(?:${EN_DEVICES})\\b[\\p{L}\\p{N} +-]{0,20}?)(?=[,.!;?]| and | but | for |$)`,
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
    new RegExp(`\\bi (?:don't|do not|never|can't|cannot) eat (?:any )?(?<value>${EN_DIET_FOODS})\\b`, "iu"),
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
  ...RELATIONS.flatMap(relationRules),
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
