/**
 * The vocabulary of the memory-card rules (card-patterns.ts): word lists, places, adverbs and the
 * small value builders the rules share.
 */
/** Slots that hold a set of values rather than one current value. */
export const MULTI_VALUED_SLOTS: ReadonlySet<string> = new Set(["likes", "dislikes", "diet", "language", "child", "pet", "event", "goal"]);

export const ZH_ROLES =
  "用户|玩机党|开发者|开发(?!者)|学生|研究生|博士生|工程师|程序员|设计师|老师|教师|医生|护士|律师|会计|产品经理|经理|玩家|创业者|自由职业者|作家|记者|研究员|分析师|架构师|运维|测试|实习生|" +
  "粉丝|果粉|米粉|球迷|歌迷|宝妈|宝爸|家长|公务员|销售|主播|博主|司机|厨师|上班族|(?:前端|后端|全栈)(?!开发|工程)";
export const EN_ROLES =
  "user|developer|dev|engineer|student|gamer|designer|fan|enthusiast|teacher|doctor|nurse|programmer|player|manager|accountant|lawyer|writer|" +
  "artist|researcher|scientist|analyst|architect|consultant|founder|intern|freelancer|musician|photographer|chef|" +
  "sre|admin|administrator|tester|contractor|beginner|newbie|customer|subscriber|parent|pm|editor|marketer|recruiter|owner|lead|" +
  "mom|dad|mother|father|retiree|homeowner|landlord|pharmacist|electrician|plumber|mechanic|driver|pilot|cook|baker|farmer|carpenter|" +
  "dentist|vet|veterinarian|therapist|professor|lecturer|tutor|coach|trainer|investor|trader|entrepreneur|ceo|cto|cfo|director|" +
  "specialist|technician|assistant|clerk|cashier|barista|streamer|youtuber|blogger|creator|runner|cyclist|translator|interpreter|" +
  "journalist|librarian|paramedic|firefighter|officer|surgeon|physician|paralegal|auditor|economist|statistician|illustrator|animator";
/** Major cities: "我在杭州工作" says where the user works, not for whom. */
export const ZH_CITIES =
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
export const GOAL_VERBS =
  "learn|become|get better at|improve|master|run|lose|save|start|switch|change careers|move to|move abroad|travel|visit|retire|" +
  "pass|finish|write|launch|quit|study|speak|get fit|get promoted|eat healthier|read more";
/** Instruments and sports: "I play X" says what the user likes doing. */
export const EN_PASTIMES =
  "guitar|piano|violin|cello|drums|bass|ukulele|saxophone|flute|tennis|basketball|soccer|football|baseball|golf|volleyball|badminton|" +
  "table tennis|ping pong|hockey|cricket|rugby|chess|poker|video games|board games|pickleball|squash";
/** Device brands and lines a Chinese statement names without a device word (我用的是华为Mate60). */
export const ZH_BRANDS =
  "华为|小米|红米|苹果|三星|OPPO|vivo|荣耀|一加|魅族|联想|戴尔|惠普|华硕|iPhone|iPad|MacBook|Mac|Pixel|Galaxy|ThinkPad|Surface|Kindle|" +
  "Windows|Linux|Ubuntu|macOS|iOS|Android|安卓|鸿蒙";
/** Device words that make "I have an X" a device statement. */
export const EN_DEVICES =
  "iphone|ipad|pixel|galaxy|macbook|imac|thinkpad|surface|kindle|chromebook|laptop|phone|tablet|xps|mac|pc|oneplus|xiaomi|huawei";

/** The Chinese value stops at punctuation; Latin words inside may keep their spaces (iPhone 15). */
export const ZH_VALUE = "[^，,。！!？?；;]";
/** The same without spaces: a place or a company name. */
export const ZH_WORD = "[^，,。！!？?；;\\s]";
/** Adverbs and time words between 我 and the verb (我最近换了, 我明年打算). */
export const ZH_WHEN = "(?:现在|目前|最近|刚|刚刚|已经|一直|今年|去年|明年|上个月|下个月|下周|明天|马上|快|也|还|都|就)*";
/** Degree words before a Chinese preference verb (我很喜欢, 我比较讨厌). */
export const ZH_DEGREE = "(?:最近|很|最|特别|真的|一直|还是|又|还|也|都|仍然|依然|现在|平时|比较|非常|超|超级|挺|蛮|更|尤其|十分)*";
/** Adverbs between an English subject and its verb (I really like, I just got). */
export const EN_ADVERBS =
  "(?:(?:really|also|absolutely|totally|genuinely|usually|generally|always|especially|still|just|recently|finally|do|kind of|kinda|now|currently) )*";
/** A person's name (Anna, Mary-Jane, Anna Lee); no apostrophe, so "Leo's school" names Leo. */
export const EN_NAME = "\\p{Lu}\\p{Ll}+(?:-\\p{Lu}\\p{Ll}+)?(?: \\p{Lu}\\p{Ll}+)?";
/** A proper name of a place or an organisation (Tokyo, New York City, MIT, University of Texas). */
export const EN_PROPER = "\\p{Lu}[\\p{L}\\p{N}&.'-]*(?: (?:of |de )?\\p{Lu}[\\p{L}\\p{N}&.'-]*)*";

export const notACity = (m: RegExpExecArray) => (CITY.test(m.groups?.value ?? "") ? "" : (m.groups?.value ?? ""));
/** 我是王芳 names; 我是学生 and 我是上海人 (an origin) do not. */
export const notARole = (m: RegExpExecArray) =>
  new RegExp(`(?:${ZH_ROLES}|人)$`, "u").test(m.groups?.value ?? "") ? "" : (m.groups?.value ?? "");
/** "a dog" → "dog", 一只猫 → 猫; a count other than one stays (two kids, 两个孩子). */
export const withoutOne = (m: RegExpExecArray) => (m.groups?.value ?? "").replace(/^(?:(?:a|an|one) |一?[个只条位])/iu, "");
/** Food groups whose absence is a diet ("I don't eat pork", 我不吃牛肉). */
export const EN_DIET_FOODS = "pork|beef|meat|red meat|fish|seafood|dairy|gluten|eggs|shellfish|nuts";
export const ZH_DIET_FOODS = "猪肉|牛肉|羊肉|肉|荤|海鲜|鱼|鸡蛋|蛋|奶制品|乳制品";
/** Every way of saying vegetarian in Chinese is one diet (吃素, 素食者, 素食主义者). */
export const zhDiet = (m: RegExpExecArray) => ({ 纯素: "纯素", 清真: "清真" })[m.groups?.value ?? ""] ?? "素食";
