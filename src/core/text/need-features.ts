/**
 * What a prompt shows of an information need, as numbers a learned model weighs (need.ts): each
 * feature is one kind of evidence, read in English, German and Chinese.
 *
 * - `asks`: a question mark ending a sentence outside code (`x?.y`, `a ? b : c` and regexes are code);
 * - `questionWord`: a sentence opens with a question word or auxiliary ("what's", "how's", "wie",
 *   "kann ich"), or a Chinese question word or final particle stands anywhere (怎么, 几岁, 吗);
 * - `infoRequest`: a request to explain, show, find or tell ("walk me through", "erklär mir", 解释一下);
 * - `actRequest`: a request to act on code or systems: the prompt opens with an act verb, or with
 *   "please" / "could you" / "帮我" and one ("push it", "could you rerun the migration?", 提交代码);
 * - `problem`: what goes wrong ("fails", "can't", "stopped working", "schlägt fehl", 失败, 报错);
 * - `pointsAtContext`: "it", "this", "that", "here" as the object: an instruction about what is on screen;
 * - `chatter`: the share of words that only react ("thanks", "cool", "lol", 好的, "👍");
 * - `greeting`: the prompt is a greeting ("hi", "moin", "你好");
 * - `code`: the share of the text in code, logs or configuration;
 * - `words`: the length, log-scaled;
 * - `titleLike`: a few words, no sentence, no pronoun and no verb of its own address: a search title
 *   ("docker remove dangling images", "postgres jsonb index").
 *
 * A sentence that only tells ("The build is green again.") has no feature of its own: tried, it
 * made the model swallow needs stated as facts on the blind set (8 against 3), and a needless
 * lookup costs less than a swallowed question.
 */
import { lemma } from "./lemma";
import { normalizeText } from "./normalize";

export const NEED_FEATURES = [
  "asks",
  "questionWord",
  "infoRequest",
  "actRequest",
  "problem",
  "pointsAtContext",
  "chatter",
  "greeting",
  "code",
  "words",
  "titleLike",
] as const;

export type NeedFeature = (typeof NEED_FEATURES)[number];
export type NeedFeatures = Record<NeedFeature, number>;

const EN_OPENERS =
  "what|what's|whats|why|how|how's|hows|when|when's|where|where's|wheres|who|who's|whos|which|whom|whose|can|could|should|would|will|shall|may|might|must|is|isn't|are|aren't|am|was|were|do|does|doesn't|did|didn't|don't|have|has|any|anyone|anybody";
const DE_OPENERS =
  "wie|was|warum|wieso|weshalb|wo|wohin|woher|wann|wer|wen|wem|welche|welcher|welches|kann|können|darf|soll|sollte|muss|ist|sind|gibt|geht|hat|habe";
const QUESTION_OPENER = new RegExp(String.raw`^(?:${EN_OPENERS}|${DE_OPENERS})\b`, "iu");
const INDIRECT =
  /^(?:i\s+(?:wonder|was\s+wondering)|i'?m\s+wondering|wondering|i(?:'d|\s+would)\s+like\s+to\s+know|i\s+(?:want|need)\s+to\s+know)\b/iu;
const ZH_QUESTION_WORD = /什么|怎么|怎样|如何|为什么|为何|哪|谁|多少|几[个点时岁天年号次]|几岁|是否|能否|可否|有没有|是不是|要不要|咋|啥/u;
const ZH_QUESTION = new RegExp(String.raw`${ZH_QUESTION_WORD.source}|[吗呢么嘛][\s\p{P}]*$`, "u");

const INFO_VERBS =
  "explain|describe|summari[sz]e|show me|tell me|walk me through|help me understand|find|look up|search|list|remind me|point me to|clarify|outline|break down|give me an overview|i need to understand|i(?:'d| would) like to understand|i want to understand|i(?:'d| would) like an explanation|erklär|erkläre|erklären|zeig|zeige|beschreib|finde|such";
const INFO_REQUEST = new RegExp(
  String.raw`(?:^|[,.;:]\s*|\b(?:please|pls|can you|could you|would you|bitte|kannst du|könntest du)\s+)(?:${INFO_VERBS})\b`,
  "iu",
);
const ZH_INFO = /解释|讲讲|讲一下|介绍|说明|说说|查一下|找一下|查查|是什么意思|总结/u;

const ACT_VERBS =
  "push|pull|rename|run|rerun|add|delete|remove|commit|deploy|fix|update|bump|refactor|revert|undo|redo|merge|rebase|install|uninstall|write|make|change|move|use|generate|create|open|close|restart|stop|start|kill|format|lint|squash|cherry-pick|tag|release|publish|rollback|roll back|migrate|replace|rewrite|split|extract|inline|implement|convert|set|enable|disable|apply|now do|do the same|try again|retry|continue with|go with|go ahead and|ship|clean up|drop|reset|sort|reorder|rearrange|wrap|unwrap|pin|upgrade|downgrade|regenerate|rebuild|redeploy|re-run|let's|lets|turn on|turn off|switch|skip|play|pause|mute|unmute|mark|remember|note down|save|send|cancel|schedule|book|assign|archive|block|unblock|subscribe|unsubscribe|translate|invite|share|copy|download|upload|attach|upgrade me|downgrade me|benenne|benenn|führe|führ|lösche|lösch|committe|commite|füge|füg|ändere|änder|erstelle|erstell|entferne|entfern|starte|start|stoppe|stopp|installiere|installier|aktualisiere|aktualisier|mach|verschiebe|verschieb|schreib|schreibe|teste|pushe|push|deploye|setze|setz";
/** After an act verb, what makes it a noun that something happened to: "deploy failed", "push rejected", "build is broken". */
const NOT_IMPERATIVE =
  "failed|fails|failing|is|was|were|are|keeps|kept|broke|broken|crashed|crashes|hangs|hung|rejected|errors|errored|stopped|doesn't|does\\s+not|didn't|won't|isn't|wasn't|never|not|times\\s+out|timed\\s+out|schlägt|schlug|ist|war|geht|funktioniert|hängt";
const ACT_REQUEST = new RegExp(
  String.raw`^(?:(?:ok(?:ay)?|now|then|and|also|please|pls|bitte)[,\s]+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+|also\s+|just\s+|quickly\s+)*|kannst\s+du\s+|könntest\s+du\s+)?(?:${ACT_VERBS})\b(?!\s+(?:${NOT_IMPERATIVE})\b)`,
  "iu",
);
/** "Would you mind splitting …": the -ing form is read by its lemma, so every act verb counts in it (splitting → split). */
const MIND_DOING = /^(?:(?:ok(?:ay)?|now|then|and|also|please)[,\s]+)*(?:would|do)\s+you\s+mind\s+(?:also\s+|just\s+)?([a-z]+ing)\b/iu;
const ACT_VERB = new RegExp(String.raw`^(?:${ACT_VERBS})$`, "iu");
/** German asks an act with the infinitive last: "Bitte die Version auf 2.0 anheben.", "Kannst du die Tests laufen lassen?" */
const DE_PLEASE_INFINITIVE = /^[Bb]itte\s+(?:\S+\s+){1,6}\p{Ll}+(?:en|ern|eln)[.!]?$/u;
/** German puts the verb last: "Kannst du die Tests nochmal laufen lassen?", "könntest du den Branch löschen?" */
const DE_ACT_LAST =
  /^(?:bitte\s+)?(?:kannst|könntest|würdest)\s+du\s+.*\b(?:laufen\s+lassen|ausführen|löschen|umbenennen|hinzufügen|ändern|committen|pushen|deployen|aktualisieren|installieren|erstellen|entfernen|verschieben|formatieren|mergen|neu\s+starten|zurücksetzen)\b/iu;
/** The polite opening of a Chinese request ("能不能帮我…"): its 不能 says nothing went wrong. */
const ZH_POLITE = /^(?:能不能|可不可以|能否|可否)/u;
const ZH_ACT =
  /^(?:(?:能|可以|能不能|可不可以)?(?:请|麻烦)?(?:你)?(?:帮我|帮忙)?)(?:再|先|也|直接|重新)*(?:把|将|给[^，,。？?]{1,12}?(?:加|添加|写|改)|提交|删除|删掉|删|运行|跑一下|跑|部署|改成|改一下|改|加一个|加个|加|添加|格式化|重启|合并|回滚|安装|更新|生成|创建|推送|写|拆|去掉|取消|翻译|标记|关掉|关闭|打开|开启|设置|设为|切换|播放|暂停|静音|发送|记住)/u;

const ZH_PROBLEM =
  /失败|报错|错误|异常|不能|无法|收不到|不工作|不行|白屏|卡住|卡顿|崩溃|闪退|打不开|加载不出|没反应|不显示|少了|多了|扣了|没有?到|丢失|问题|慢/u;
const PROBLEM = new RegExp(
  [
    String.raw`\b(?:fails?|failed|failing|failure|broken|breaks|crash(?:es|ed|ing)?|error|errors|exception|can'?t|cannot|couldn'?t|doesn'?t|don'?t|won'?t|isn'?t|aren'?t|wasn'?t|not\s+working|stopped|hangs?|hanging|stuck|never|keeps?|wrong|missing|empty|blank|flaky|slow|timeout|timed\s+out|denied|rejected|refused|leaks?|unable|invalid|incorrect|duplicate[ds]?|twice|no\s+longer|nothing|no\s+effect|disappear(?:s|ed)?|lost)\b`,
    String.raw`\b(?:schlägt\s+fehl|fehlgeschlagen|fehler|funktioniert\s+nicht|geht\s+nicht|kaputt|falsch|nicht\s+mehr|kann\s+(?:mich\s+)?nicht)\b`,
    String.raw`\b(?:4\d\d|5\d\d)\b`,
    ZH_PROBLEM.source,
  ].join("|"),
  "iu",
);
/** An error code as systems write it ("ENOSPC", "ERR_MODULE_NOT_FOUND"): case-sensitive, so "enough" and "email" are words. */
const ERROR_CODE = /\bE[A-Z]{3,}\b|\b[A-Z]+_[A-Z_]+\b/u;
/** A determiner or pronoun: an instruction names what it acts on; a search title drops them. */
const POINTS_AT = /\b(?:the|a|an|this|that|these|those|it|them|my|your|our|me|us|here|there|everything|all)\b/iu;
const CONTEXT_OBJECT = /\b(?:it|this|that|these|those|here|there)\b|这个|那个|这里|它/iu;
/** Words that only react ("thanks", "cool", "geklappt"); with one of them, the words around it ("that was", "oh") react too. */
const CHATTER_WORDS = new Set(
  (
    "ok okay k kk cool nice great good awesome perfect thanks thank thx ty cheers lol haha hah hehe wow yay yes yep yeah yup no nope sure fine " +
    "works worked done got it makes sense sounds the best job lgtm nw worries np alright right ship exactly needed fast quick " +
    "amazing brilliant excellent love lovely neat sweet fixed solved helped helpful appreciate appreciated fair enough worries " +
    "trick noted roger ack gotcha kudos congrats hooray phew oops omg meh hmm ugh aha yea ya" +
    " danke dir super passt alles klar gut prima toll geklappt klasse spitze perfekt"
  ).split(" "),
);
const FILLER = new Set(
  "oh ah so that that's this it it's was is i you you're we what just really very much all a the and now for today again too me my man mate dude hat das war ist es ja mal".split(
    " ",
  ),
);
const ZH_CHATTER =
  /^(?:(?:好的?|好吧|好嘞|行|嗯+|哈+|收到|明白了?|知道了|谢谢你?|多谢|非常感谢|没问题|太棒了|不错|可以|对|是的|厉害了?|赞|辛苦了?|搞定了?|完美|牛|给力|真的假的|太厉害了吧?|哇塞?|天哪)[,，!！。.~～?？\s]*|\p{Extended_Pictographic}\s*)+$/u;
/** Greetings and farewells in the common languages, each said to someone or to no one ("hi team", "bye, talk later", "嗨，大家好"). */
const SALUTATION = String.raw`(?:hi|hello|hey|yo|hiya|howdy|good\s+(?:morning|afternoon|evening|day|night)|greetings|moin|servus|hallo|guten\s+(?:tag|morgen|abend)|bonjour|bonsoir|salut|hola|buen(?:os|as)\s+(?:días|dias|tardes|noches)|ciao|bye|goodbye|see\s+(?:you|ya)(?:\s+(?:later|soon|tomorrow))?|(?:talk|speak)\s+(?:to\s+you\s+)?(?:later|soon|tomorrow)|ttyl|take\s+care|tschüss|tschüs|tschau|bis\s+(?:morgen|später|bald|dann)|auf\s+wiedersehen|au\s+revoir|à\s+(?:demain|bientôt|plus)|adiós|adios|hasta\s+(?:luego|mañana|pronto)|arrivederci|你好|您好|早上好|晚上好|下午好|大家好|嗨|再见|拜拜|晚安|明天见)(?:\s+(?:there|team|all|everyone|folks|guys|zusammen|leute))?[呀啊哈呢]?`;
/**
 * One salutation after another ("bye-bye", "hi team, hope you're well"). Each one after the first is
 * taken whole, once (a lookahead and its backreference: an atomic group), so a long run of them that
 * ends in something else fails at once instead of trying every way to split it ("bye bye bye … x").
 */
const GREETING = new RegExp(
  String.raw`^${SALUTATION}(?:(?=([\s!,.。！~，、-]+(?:${SALUTATION}|(?:i\s+)?hope\s+you(?:'re|\s+are)\s+(?:doing\s+)?(?:well|good|great|fine)|how\s+are\s+you(?:\s+doing)?|how'?s\s+it\s+going)))\1)*[\s!,.。！~?，]*$`,
  "iu",
);

/** Words that open a sentence without changing what it asks: "hi, how do I …", "wait, why does …", "ok so where …". */
const DISCOURSE_MARKERS =
  /^(?:(?:hi|hello|hey|ok(?:ay)?|so|well|oh|um+|uh+|hm+|btw|also|and|but|wait|quick question|sorry|hallo|naja|嗯|那|请问)[,!:;.\s，：]+)+/iu;

/** A line of code, a log line or configuration. */
const CODE_LINE =
  /[{};]\s*$|^\s*(?:at\s+[\w.$<>/]+\s*\(|[{}[\]]|\/\/|#!|<\/?\w+[^>]*>|(?:const|let|var|function|def|class|import|export|return|if|for|type|interface|SELECT|INSERT|UPDATE)\b|[\w.]+\(.*\)\s*[;{]?$|npm (?:ERR|WARN)|\d{4}-\d\d-\d\dT\d\d:|\[\w+\]\s)|=>|\?\.|\?\?|\b\w+\s*=\s*[^=]|^\s*\/\^|^\s{2,}\S/;

/**
 * Which lines are code or output: a code line, a log line once several lines were pasted, and every
 * line after a shell prompt ("$ git status") up to a blank line, which is that command's output.
 */
function outputLines(lines: readonly string[], pasted: boolean): boolean[] {
  let afterPrompt = false;
  const output = lines.map((line) => {
    if (!line.trim()) return (afterPrompt = false);
    if (SHELL_PROMPT.test(line)) return (afterPrompt = true);
    return afterPrompt || CODE_LINE.test(line) || (pasted && LOG_HEAD.test(line));
  });
  // A comment is code where code stands beside it ("# read the config" above `config = …`), in any language.
  return output.map((isOutput, i) => isOutput || (COMMENT.test(lines[i]!) && (output[i - 1] === true || output[i + 1] === true)));
}
const SHELL_PROMPT = /^\s*\$ [\w./-]+/u;
const COMMENT = /^\s*(?:#(?!!)|--\s|\/\*)/u;

/** Code, logs and configuration: the share of lines that are, or 1 for a fenced block. */
function codeShare(text: string): number {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length === 0) return 0;
  const fenced = /```/.test(text) ? 1 : 0;
  const codeLike = outputLines(lines, lines.length >= 2).filter(Boolean).length;
  return Math.max(fenced, codeLike / lines.length);
}

/** The text without code, so a "?" in `x?.y`, `a ? b : c` or a regex does not read as asking. */
function prose(text: string): string {
  return text
    .replace(/```[\s\S]*?```|`[^`]*`/g, " ")
    .replace(/\?\.|\?\?|\?\s*[\w"'`(]+\s*:|\(\?[:=!<]|[\w\])]\?(?=[\w([*+])|\/\^[^\n]*\/\w*/g, " ");
}

/** The lines that are not code or log output: a traceback's "Exception" states no problem of the writer's. */
function proseLines(text: string): string {
  const lines = text.split(/\r?\n/);
  const output = outputLines(lines, lines.filter((l) => l.trim()).length >= 3);
  return lines.filter((line, i) => !output[i] && !/```/.test(line)).join("\n");
}
/** Directives of the languages and tools that write them in upper case: Dockerfile, SQL (its clauses too), git's merge output. */
const DIRECTIVES =
  "FROM|RUN|CMD|COPY|ADD|ENV|EXPOSE|WORKDIR|ENTRYPOINT|ARG|USER|VOLUME|LABEL|HEALTHCHECK|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WITH|WHERE|JOIN|LEFT|RIGHT|INNER|OUTER|GROUP|ORDER|HAVING|LIMIT|VALUES|SET|AND|OR|ON|CONFLICT|Auto-merging";
/**
 * A line of pasted output rather than prose: the head of a trace ("Traceback (most recent call
 * last):", "java.lang.NullPointerException: …", "docker: Error response …"), a line opening with a
 * timestamp (ISO or syslog's "Mar 12 03:02:11") or a log level, a diff's header or hunk, a
 * directive of a language that writes them in upper case (Dockerfile, SQL, git's "CONFLICT
 * (content)"), a configuration key as YAML and .ini write them, lower case first
 * ("apiVersion: v1", "  replicas: 3"; "Question: how do I …" is prose), or columns aligned by runs
 * of spaces. An acronym opening a line ("API returns 500 …") is prose.
 */
const LOG_HEAD = new RegExp(
  String.raw`^\s*(?:Traceback \(most recent call last\)|Exception in thread|Caused by:|panic:|fatal:|npm (?:ERR|WARN)!|[\w.$]*(?:Error|Exception)\b.*:|[\w.-]+: (?:Error|ERROR|error|fatal|FATAL)\b|File "[^"]+", line \d+|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\p{L}{3} +\d{1,2} \d\d:\d\d:\d\d|[a-z_][\w.-]*:(?: +[^\s:?][^:?]*)?$|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\]?\s|(?:---|\+\+\+) [ab]\/|@@ -\d|(?:${DIRECTIVES})\s+\S|\S+(?: {2,}\S+){2,}\s*$)`,
  "u",
);

/** A sentence that asks for an act: an act verb first, or after "could you" / "would you mind" / "bitte". */
function asksToAct(sentence: string): boolean {
  if (ACT_REQUEST.test(sentence) || DE_ACT_LAST.test(sentence) || DE_PLEASE_INFINITIVE.test(sentence)) return true;
  const doing = MIND_DOING.exec(sentence)?.[1];
  return doing !== undefined && ACT_VERB.test(lemma(doing.toLowerCase()));
}

export function needFeatures(input: string): NeedFeatures {
  const raw = input.replace(/[’‘]/gu, "'");
  const text = normalizeText(raw).text;
  const plain = prose(raw);
  // Pasted output asks nothing: "npm ERR! Could not resolve dependency" is not "Could …?".
  const sentences = (/\n\s*\S/u.test(plain.trim()) ? proseLines(plain) : plain)
    .split(/[\r\n]+/u)
    .flatMap((line) => line.split(/(?<=[.!?;])\s+|(?<=[。！？])\s*/u))
    .map((s) =>
      s
        .replace(/^[\s"'“”`>#*\-–—•(（[【]+/u, "")
        .replace(DISCOURSE_MARKERS, "")
        .trim(),
    )
    .filter(Boolean);
  const words = text.match(/[\p{L}\p{N}']+|\p{Extended_Pictographic}/gu) ?? [];
  const latinWords = words.filter((w) => !/\p{Script=Han}/u.test(w));
  const reacting = words.filter((w) => CHATTER_WORDS.has(w.toLowerCase()) || /\p{Extended_Pictographic}/u.test(w)).length;
  const filler = reacting > 0 ? words.filter((w) => FILLER.has(w.toLowerCase())).length : 0;
  const code = codeShare(raw);
  const han = /\p{Script=Han}/u.test(text);
  const sentenceLike = /[.!?。！？]/u.test(plain) || sentences.length > 1;
  const infoRequest = sentences.some((s) => INFO_REQUEST.test(s)) || ZH_INFO.test(plain);
  // "Could you rerun the migration?" asks for an act: its question form is politeness, not a question.
  // A Chinese sentence that says something went wrong tells what happened ("部署到生产环境后页面白屏了"), not what to do.
  const actRequest =
    !infoRequest &&
    (sentences.some(asksToAct) || (ZH_ACT.test(text) && !ZH_PROBLEM.test(text.replace(ZH_POLITE, "")) && !ZH_QUESTION_WORD.test(text)));
  const asking = sentences.filter((s) => !asksToAct(s));
  return {
    asks: asking.some((s) => /[?？](?:\s|$|[)"'”])/u.test(s + " ")) ? 1 : 0,
    questionWord:
      asking.some((s) => QUESTION_OPENER.test(s) || INDIRECT.test(s)) || (han && !actRequest && ZH_QUESTION.test(plain)) ? 1 : 0,
    infoRequest: infoRequest ? 1 : 0,
    actRequest: actRequest ? 1 : 0,
    problem: PROBLEM.test(proseLines(plain)) || ERROR_CODE.test(proseLines(plain)) ? 1 : 0,
    pointsAtContext: CONTEXT_OBJECT.test(plain) ? 1 : 0,
    chatter: words.length === 0 ? 1 : han && ZH_CHATTER.test(text) ? 1 : (reacting + filler) / words.length,
    greeting: GREETING.test(text) ? 1 : 0,
    code,
    words: Math.log1p(han ? Array.from(text.replace(/[^\p{Script=Han}]/gu, "")).length + latinWords.length : words.length),
    // A verb may open a title ("convert mp4 to gif ffmpeg"): told to act, people point at something ("convert this", "the file").
    titleLike:
      !sentenceLike &&
      !(actRequest && POINTS_AT.test(plain)) &&
      words.length >= 2 &&
      words.length <= 8 &&
      code < 0.5 &&
      !CONTEXT_OBJECT.test(plain) &&
      !/\b(?:i|me|my|we|us|our|you|your)\b/iu.test(plain)
        ? 1
        : 0,
  };
}
