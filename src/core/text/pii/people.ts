/**
 * Who wrote, where they work and what they do, found where a ticket says it rather than by a list
 * of names: after a relationship word or a title ("my colleague Rebecca Stone", "Mr. Paul
 * Wright", "联系人陈静"), in a self-introduction ("I'm Ravi from Umbrella Corp", "This is Jonathan
 * Meyers, finance manager at Brightline Foods", "ich bin … von …", "je suis … chez …", "我是…的李娜"),
 * and as a company by its legal form ("Nordic Bakes AB", "Krüger Maschinenbau GmbH", "…有限公司").
 * Greetings, sign-offs and signature blocks are whole lines and sentences: ticket-clean.ts drops them.
 */
import { caseless } from "../ticket-phrases";
import { ENGLISH_STOPWORDS } from "../stopwords";
import type { Span } from "./kinds";

/** A capitalised name of one to three words ("Rebecca Stone", "J. Alvarez", "de Vries"). */
const NAME_PART = String.raw`\p{Lu}(?:\.|[\p{L}'’-]+(?![\p{L}'’-]|:))`;
const NAME = String.raw`${NAME_PART}(?:\s+(?:(?:de|da|van|von|der|del|di|le|la)\s+)?${NAME_PART}){0,2}`;
const HAN_NAME = String.raw`\p{Script=Han}{2,3}`;

/** Titles before a name: after one a capitalised word is a person, and between a relation and the name ("my colleague Dr. Femi Adeyemi") it is not the name. */
const TITLES = String.raw`mr|mrs|ms|miss|dr|prof|herr|frau|mme|mlle|sr|sra|srta|sig|sig\.ra|dhr|mevr`;
const TITLE = `(?:${caseless([TITLES])})`;

/** Words after which a capitalised name is a person: relations, roles in the customer's life, titles. */
const BEFORE_NAME = caseless([
  String.raw`\b(?:colleague|coworker|co-worker|boss|manager|accountant|assistant|wife|husband|partner|son|daughter|employee|guy|person|contact|admin|administrator|developer|intern|consultant|technician|director|ceo|cfo|cto|mitarbeiter(?:in)?|chef(?:in)?|employé|employée|empleado|empleada|dipendente|funcionári[oa]|medewerker)|\b(?:(?:his|her|their) name|account holder|cardholder|card holder|name on (?:the )?card|(?:under|in|booked (?:under|in)) the name(?: of)?|contact person|ansprechpartner(?:in)?|kollegin|kollege|collègue|compañer[oa]|colleg[ao]|collega)|\b(?:(?:${TITLES})\.?|m\.)(?=\s+\p{Lu})`,
]);

/** Legal forms that end a company's name. */
const LEGAL_FORM = String.raw`(?:Inc|Ltd|Limited|Ltda|Lda|LLC|LLP|GmbH|GbR|UG|AG|AB|AS|A\/S|ApS|Oy|SAS|S\.A\.S\.|SA|SARL|Sàrl|S\.A\.|S\.L\.|S\.L\.U\.|SL|SpA|S\.p\.A\.|Srl|SRL|S\.R\.L\.|Sp\. z o\.o\.|s\.r\.o\.|Kft|K\.K\.|e\.K\.|eG|BV|B\.V\.|NV|N\.V\.|Corp|Corporation|Co|Company|plc|PLC|Pty|KG|OHG|Group|Holdings|& Sons|& Fils|& Co|Association|Foundation|Stiftung|e\.V)\.?`;
const COMPANY = String.raw`(?:\p{Lu}[\p{L}\p{N}'’.-]*\s+(?:&\s+)?){1,4}${LEGAL_FORM}(?![\p{L}])`;

/** Openers that only ever introduce the writer: what follows is their name. */
const NAMING = String.raw`my name is|my name's|ich heiße|ich heisse|mein name ist|je m'appelle|me llamo|mi nombre es|mi chiamo|meu nome é|mijn naam is`;
/** Openers that introduce the writer when a name, a role or a company follows ("I'm Ravi", "I'm the office manager at Pine Street Dental"), not otherwise ("I'm unable to log in"). */
const PRESENTING = String.raw`(?:i'm |i am )?writing (?:to you )?(?:on behalf of|for|from)|on behalf of|(?:os |les |le |vous )?(?:escribo|écris|schreibe|scrivo|escrevo|schrijf)(?: (?:les|os|vous|ihnen|euch|le|vi|lhe|jullie))? (?:de parte de|en nombre de|de la part de|au nom de|pour|im namen (?:von|der)|für|a nome di|per conto di|em nome de|namens)|de parte de|de la part de|im namen (?:von|der)|a nome di|em nome de|namens|this is|it's|it is|i'm|i am|i work (?:at|for|in)|we are|we're|ich bin|hier ist|wir sind|ich arbeite (?:bei|für)|je suis|nous sommes|je travaille (?:chez|pour)|soy|somos|trabajo (?:en|para)|sono|lavoro (?:per|presso|da)|eu sou|sou|trabalho (?:na|no|para|em)|ik ben|wij zijn|ik werk (?:bij|voor)`;
const GREETED = String.raw`(?:(?:${caseless(["hi|hello|hey|hallo|moin|bonjour|hola|olá|ciao|hoi"])})[,!]?\s+)?`;
/** After a presenting opener, a role at a named place: "the office manager at Pine Street Dental", "la responsable de Atelier". */
const ROLE_AT = String.raw`(?:${caseless(["the|a|an|one of the|un|une|el|la|le|der|die|das|il|lo|o|de|het|een"])})\s+[^.!?\n]{0,40}?\s(?:${caseless(["at|from|with|of|for|in|bei|von|chez|de|du|di|del|em|na|no|da|bij|van|für|pour|para|per|presso"])})\s+\p{Lu}`;

/** A piece of the clause: a bracketed aside whole ("(lucas@harbor.example, ext. 4471)"), or a character that ends no sentence. */
const CLAUSE_PART = String.raw`(?:\([^)\n]{0,80}\)|[^.!?\n(]|[.!?](?!\s|$))`;
/** Where the introduction ends: its sentence's end, or where the writer moves on ("and we just moved …", ", how do i …"). */
const CLAUSE_END = String.raw`(?=\s+(?:and|und|et|y|e|en)\s+(?!\p{Lu}\p{Ll})|\s*[.!?](?:\s|$)|\s*\n|,\s*(?:${caseless(["how|what|why|where|when|can|could|is|do|does|wie|was|warum|comment|pourquoi|cómo|qué|como|come|hoe"])})(?![\p{L}])|$)`;

/**
 * The self-introduction clause: the opener, then up to 110 characters that introduce (a name, "the
 * office manager at Pine Street Dental", "from Umbrella Corp"), to where the clause ends. After a
 * presenting opener comes a name or a role at a named place: "I'm getting E403" introduces no one.
 */
const INTRO_CLAUSE = new RegExp(
  String.raw`(?<![\p{L}'])${GREETED}(?:(?:${caseless([NAMING])})\s+${CLAUSE_PART}{1,110}?|(?:${caseless([PRESENTING])})\s+(?:\p{Lu}|${ROLE_AT})${CLAUSE_PART}{0,100}?)${CLAUSE_END}`,
  "gu",
);

/** "我是杭州星辰科技有限公司的财务李娜。", "我是深圳的刘洋，": the clause up to its punctuation. */
const ZH_INTRO =
  /(?:^|(?<=[。！？，,\s]))我(?:是|叫)(?!.{0,3}(?:用户|客户|会员|學生|学生|老师|老師|新手))[^。！？，,\n]{2,40}(?:[，,]\s*在[^。！？，,\n]{2,40}(?:担任|擔任|工作|上班|负责|負責)[^。！？，,\n]{0,10})?[。！？，,]?/gu;

function spansOf(text: string, pattern: RegExp, kind: Span["kind"], group = 0): Span[] {
  const found: Span[] = [];
  for (const m of text.matchAll(pattern)) {
    const value = m[group];
    if (!value) continue;
    const start = m.index + m[0].lastIndexOf(value);
    found.push({ kind, start, end: start + value.length });
  }
  return found;
}

export function people(text: string): Span[] {
  return [
    ...spansOf(
      text,
      new RegExp(
        String.raw`(?<![\p{L}'’])(?:${BEFORE_NAME})(?:\s+(?:is|was|named|called|ist|heißt|heisst|est|s'appelle|es|se llama|é|è|si chiama|heet))?(?:\s*\(\s*|,?\s+)(?:${TITLE}\.?\s+)?(?!(?:Support|Team|Service|Admin|Settings|Billing|Account|Portal|Dashboard|API)\b)(${NAME})`,
        "gu",
      ),
      "name",
      1,
    ),
    ...spansOf(
      text,
      new RegExp(
        String.raw`(?:联系人|聯絡人|收件人|收货人|收貨人|寄件人|持卡人|负责人|負責人|同事|姓名|名字|患者|病人|孩子|儿子|兒子|女儿|女兒|学生|學生|乘客|旅客|住客|户主|戶主|申请人|申請人|投保人|被保险人|被保險人|账户名|戶名|户名)(?:是|為|为|叫|[:：(（])?\s*(${HAN_NAME})`,
        "gu",
      ),
      "name",
      1,
    ),
    ...spansOf(text, CASELESS_NAMING, "name", 1),
    ...spansOf(text, new RegExp(COMPANY, "gu"), "company"),
    ...spansOf(text, /\p{Script=Han}{2,20}?(?:有限公司|股份有限公司|股份公司|集团|集團|公司|工作室|事务所|事務所|研究所)/gu, "company"),
    ...spansOf(text, JA_COMPANY, "company"),
    ...spansOf(text, COMPANY_AFTER_FORM, "company"),
    ...spansOf(text, COMPANY_IN_LOWER_CASE, "company"),
  ];
}

/**
 * Legal forms that stand before the name: Russian, Ukrainian and Kazakh ones before a quoted or
 * capitalised name ("ООО «Северный Ветер»", "ТОВ \"Зоря\""), the Arabic and Hebrew word for a company
 * before its name ("شركة الأفق للتجارة", "חברת אור ים").
 */
const COMPANY_AFTER_FORM = new RegExp(
  String.raw`(?<![\p{L}])(?:(?:ООО|ОАО|ЗАО|ПАО|АО|ИП|ТОВ|ПрАТ|ФОП|ТОО)\s*(?:«[^»\n]{1,60}»|"[^"\n]{1,60}"|„[^“\n]{1,60}“|\p{Lu}[\p{L}-]*(?:\s+\p{Lu}[\p{L}-]*){0,2})|(?:شركة|مؤسسة)(?:\s+[\p{Script=Arabic}]+){1,3}|חברת(?:\s+[\p{Script=Hebrew}"׳״']+){1,2})`,
  "gu",
);
/** A company written all in lower case before its legal form, as people type it ("brightwater plumbing llc"): the words back to a function word. */
const COMPANY_IN_LOWER_CASE = new RegExp(
  String.raw`(?<![\p{L}])(?:(?!(?:${[...ENGLISH_STOPWORDS].join("|")})\s)[\p{Ll}\d][\p{Ll}\d'’&-]*\s+){1,3}(?:llc|ltd|inc|gmbh|plc|pty ltd|b\.v\.|s\.r\.o\.)\.?(?![\p{L}])`,
  "gu",
);

/** A character of a Japanese name: kana, kanji, Latin letters, not a particle ("の", "は", …) that ends it. */
const JA_NAME_CHAR = String.raw`(?:(?![のはがをにでともへ])[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}ー・A-Za-z])`;
/** Japanese legal forms stand before or after the name: "株式会社ミナトシステム", "さくら物流株式会社". */
const JA_COMPANY = new RegExp(
  String.raw`(?:株式会社|有限会社|合同会社)${JA_NAME_CHAR}{1,20}|${JA_NAME_CHAR}{1,20}(?:株式会社|有限会社|合同会社)`,
  "gu",
);

/** "株式会社さくら物流の情報システム部の山田と申します。": a Japanese sentence that gives the writer's name ("と申します", "といいます"). */
const JA_INTRO = /(?:^|(?<=[。！？\s]))[^。！？\n]{1,60}?と(?:申します|いいます|言います)[。]?/gu;

/**
 * "मेरा नाम सुनीता देवी शर्मा है", "اسمي منى الشريف،", "ชื่อผู้รับ: นางสาวพิมพ์ชนก ศรีสุข": in a script without capitals, an opener
 * that only ever gives a name, and the words after it (one to four) to where the clause ends: its punctuation, the line's
 * end, or the copula ("है", "ہے", "است").
 */
const CASELESS_NAMING =
  /(?<![\p{L}\p{M}])(?:(?:أنا )?اسمي|שמי|קוראים לי|मेरा नाम|আমার নাম|என் பெயர்|میرا نام|نام من|اسم من|(?:ดิฉัน|ผม|ฉัน)?ชื่อ(?:ผู้รับ)?\s*:)\s*([\p{L}\p{M}'"׳-]+(?:[ \t]+[\p{L}\p{M}'"׳-]+){0,3}?)(?=[ \t]*(?:है|हूँ|हूं|ہے|ہوں|است|هستم|[,،.!?।:;\n]|$))/gu;

/** Self-introduction clauses, whole: the name, role and company in them are nothing another customer asks. */
export function introductions(text: string): Span[] {
  return [INTRO_CLAUSE, ZH_INTRO, JA_INTRO]
    .flatMap((pattern) => spansOf(text, pattern, "introduction"))
    .map((s) => ({
      ...s,
      drop: true as const,
    }));
}
