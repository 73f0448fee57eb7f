/**
 * People's names found by the names people have, not only by where a ticket puts them: a
 * capitalised given name of any culture ("Darnell", "Noémie", "Katarzyna", "Kwame"), with the
 * capitalised words after it as its surname ("Darnell Whitaker", "Marek Nowicki"); a Chinese
 * surname before a title ("刘先生", "王女士", "孙工"), a Japanese one with a space and a given name
 * ("佐藤 花子"), a Korean one before an honorific ("김민준 고객님"). The given names and the surnames
 * are faker's (tables/person-names.json, scripts/build-names.mjs).
 *
 * A given name that is also an English word ("Grace", "Will", "Mark", "May") is a name only with a
 * surname after it: alone it may be the word. A name opening a sentence needs a surname too ("Will
 * the reception be open?"). Other finders cover the names a context marks (people.ts: "my
 * colleague …", "I'm …"; ticket-clean.ts: greetings and signatures).
 */
import { englishLexicon, lemma } from "../lemma";
import { ENGLISH_STOPWORDS } from "../stopwords";
import namesTable from "../tables/person-names.json";
import { calendarWords } from "./calendar";
import type { Span } from "./kinds";

let names: { given: ReadonlySet<string>; titledZh: RegExp; spacedJa: RegExp; honouredKo: RegExp } | null = null;

/** Scripts that write no capitals (a character class's inside): a name in them is told by where it stands, not by its first letter. */
export const CASELESS_SCRIPT = String.raw`\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Thai}\p{Script=Hangul}`;

/** The tables, read once per isolate. */
function personNames() {
  if (names) return names;
  const t = namesTable as { given: string; zhSurnames: string; jaSurnames: string; koSurnames: string };
  const calendar = calendarWords();
  names = {
    given: new Set(t.given.split(" ").filter((n) => !calendar.has(n))),
    titledZh: new RegExp(String.raw`(?:${t.zhSurnames.split(" ").join("|")})${TITLES_ZH}`, "gu"),
    // A Korean name is a surname and (mostly) two syllables, before the honorific a letter gives it ("김민준 고객님", "박서연님", "이지은 드림").
    honouredKo: new RegExp(
      String.raw`(?<!\p{Script=Hangul})(?!${KO_ROLES})(?:${t.koSurnames.split(" ").join("|")})\p{Script=Hangul}{2}(?=\s?(?:고객님|님|씨|드림|올림|배상)(?!\p{Script=Hangul}))`,
      "gu",
    ),
    spacedJa: new RegExp(
      String.raw`(?<!${KANA_HAN})(?:${t.jaSurnames.split(" ").join("|")})[ \u3000](?:\p{Script=Han}{1,3}|[\p{Script=Hiragana}\p{Script=Katakana}]{2,4})(?!${KANA_HAN})`,
      "gu",
    ),
  };
  return names;
}

/** The given names the cleaning knows (for signatures and greetings: a word there that is one is a name). */
export function isGivenName(word: string): boolean {
  const { given } = personNames();
  return given.has(word) || given.has(unaccented(word));
}

/** faker writes some alphabets' names without their accents ("Ελενη"), and people write them with ("Ελένη"). */
const unaccented = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");

/** An English word (WordNet's common vocabulary by its lemma, or a function word): "grace", "marks", "mobile", "the". */
export function isEnglishWord(word: string): boolean {
  const lower = word.toLowerCase();
  if (ENGLISH_STOPWORDS.has(lower)) return true;
  const { nouns, verbs, adjectives, adverbs } = englishLexicon();
  const base = lemma(lower);
  return [nouns, verbs, adjectives, adverbs].some((set) => set.has(lower) || set.has(base));
}

const CAPITALISED = /\p{Lu}[\p{L}'’-]*\p{L}/gu;
/**
 * A surname after a given name: capitalised, one or two words, with its particles ("de Vries", "de la Peña", "O'Connell", "Dubois-Martin");
 * not a label ("Mandatsreferenz:"). French sets a colon off by a space ("mon fils Nathan Lefèvre : …"): only a colon right
 * after the word makes it a label.
 */
const SURNAME =
  /^(?:[ \t]+(?:(?:de|da|van|von|der|den|del|della|di|du|le|la|los|las|dos|das|bin|al)[ \t]+){0,2}\p{Lu}[\p{L}'’-]*\p{L}(?![\p{L}'’-])(?!:)){1,2}/u;
/** Words that make a name a place: "São Paulo", "San Diego", "Saint-Denis", "Fort William". */
const PLACE_BEFORE = /(?:São|Sao|San|Santa|Santo|Saint|Sainte|St\.?|Ste\.?|Sankt|Fort|Port|Mount|Mt\.?|Lake|Cape)[ -]$/u;
/** An article or possessive just before a word, in the common languages: what follows is a noun phrase. */
const ARTICLE_BEFORE =
  /(?<![\p{L}])(?:the|a|an|this|that|my|our|your|der|die|das|den|dem|des|ein|eine|einen|einem|mein|meine|unser|unsere|le|la|les|l'|un|une|mon|ma|notre|votre|el|los|las|il|lo|gli|o|os|as|het|een)\s+$/iu;

/** Whether the word at `at` opens a sentence, a line or a list item: only what stands just before it is read. */
function opensSentence(text: string, at: number): boolean {
  const before = (i: number) => {
    while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
    return i;
  };
  const i = before(at - 1);
  if (i < 0 || /[.!?。！？:：\n\r]/u.test(text[i]!)) return true;
  // A list item's mark opens its line ("- Maria"); a dash inside a line does not ("thanks - Maria").
  if (!/[-–—•*]/u.test(text[i]!)) return false;
  const j = before(i - 1);
  return j < 0 || text[j] === "\n";
}
/** Korean role nouns an honorific also follows ("담당자님"): a surname's syllable opens some of them. */
const KO_ROLES = "(?:담당자|관리자|사용자|운영자|책임자|상담사|상담원|매니저|대표님|회원님)";
const KANA_HAN = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]`;
/** Titles after a Chinese surname; the one-character ones ("孙工", "林总") only where an address ends, so 施工 and 加工 stay words. */
const TITLES_ZH =
  "(?:先生|女士|小姐|老师|老師|经理|經理|总监|總監|主任|律师|律師|医生|醫生|同学|同學|(?:总|總|工)(?=[，,：:！!、\\s]|您好|你好|$))";

/** Words in capitals after a given name in capitals, as a card or a form prints a name ("EMEKA OBI"). */
const CAPITALS_SURNAME = /^(?:[ \t]+\p{Lu}[\p{Lu}'’-]*\p{Lu}(?![\p{L}\p{N}]))+/u;

/**
 * "ROSALIND OKONKWO-BEATTIE": in capitals every word looks like a name, so both the given name and the
 * surname must be no English word ("KAREN SAYS", "IBAN DETAILS" stay).
 */
function nameInCapitals(text: string, m: RegExpMatchArray): Span | null {
  const word = m[0];
  const titled = word[0]! + word.slice(1).toLowerCase();
  if (word.length < 3 || !isGivenName(titled) || isEnglishWord(titled)) return null;
  const after = text.slice(m.index! + word.length, m.index! + word.length + 60);
  const words = (CAPITALS_SURNAME.exec(after)?.[0] ?? "").match(/[ \t]+\S+/gu) ?? [];
  let end = 0;
  for (const w of words.slice(0, 2)) {
    if (isEnglishWord(w.trim())) break;
    end += w.length;
  }
  return end ? { kind: "name", start: m.index!, end: m.index! + word.length + end } : null;
}

/**
 * Case endings of the languages that inflect names (Polish, Czech, Russian, Ukrainian, Hungarian), and what the
 * name's own form ends in instead: "Agnieszką" is Agnieszka, "Zdzisława" Zdzisław, "Тамаре" Тамара, "Péternek" Péter.
 * Only endings a noun of another language seldom has: German's capitalised nouns end in -e, -t or -u too ("Karte", "Monat").
 */
const CASE_ENDINGS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/(?:ą|ę)$/u, ["a"]],
  [/(?:owi|ovi|a)$/u, [""]],
  [/(?:е|ы|и|у|ю|ой|ей|ою)$/u, ["а", "я"]],
  [/(?:а|у|ю|ом|ем|е|ові|еві)$/u, [""]],
  [/(?:nek|nak|nál|nél|val|vel|hoz|hez|höz)$/u, [""]],
];

/** A given name in another case than its own, read only where the word itself is no English word and its base is four letters or more. */
function inflectedGivenName(word: string): boolean {
  if (word.length < 5) return false;
  const named = CASE_ENDINGS.some(([ending, bases]) => {
    const stem = word.replace(ending, "");
    return stem !== word && stem.length >= 4 && bases.some((base) => isGivenName(stem + base));
  });
  // The lexicon last: most capitalised words end in none of these, and it costs a lemma.
  return named && !isEnglishWord(word);
}

export function givenNames(text: string): Span[] {
  const found: Span[] = [];
  for (const m of text.matchAll(CAPITALISED)) {
    if (m[0].length > 1 && m[0] === m[0].toUpperCase()) {
      const span = nameInCapitals(text, m);
      if (span) found.push(span);
      continue;
    }
    const word = m[0].replace(/['’]s$/u, "");
    // "Aino-Kaisa", "Jean-Luc": a double given name opens with a given name
    const given =
      isGivenName(word) || (/^\p{Lu}\p{Ll}+-\p{Lu}\p{Ll}+$/u.test(word) && isGivenName(word.split("-")[0]!)) || inflectedGivenName(word);
    if (!given || PLACE_BEFORE.test(text.slice(Math.max(0, m.index - 7), m.index))) continue;
    const first = opensSentence(text, m.index);
    const isWord = isEnglishWord(word);
    // "Can Anna see …": a word opening a sentence is that word, whatever name follows it.
    if (first && isWord) continue;
    const surname = SURNAME.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 80))?.[0] ?? "";
    // Alone, a word-name or a sentence's first word is read as a word: a surname makes it a person. So is an acronym
    // ("API") and a word after an article ("der Kalender", "la carte", "the Vitale app"): a noun phrase, not a person.
    if (!surname && (isWord || first || word === word.toUpperCase() || ARTICLE_BEFORE.test(text.slice(Math.max(0, m.index - 8), m.index))))
      continue;
    // "Rose Garden": a word-name before words is words.
    if (
      isWord &&
      surname
        .trim()
        .split(/\s+/)
        .every((w) => isEnglishWord(w) && !isGivenName(w))
    )
      continue;
    found.push({ kind: "name", start: m.index, end: m.index + word.length + surname.length });
  }
  // Names in scripts without capitals, by a surname and what marks the name: a Chinese title ("刘先生"), a Japanese space
  // between surname and given name ("佐藤 花子": Japanese puts none between words), a Korean honorific ("김민준 고객님").
  for (const pattern of [personNames().titledZh, personNames().spacedJa, personNames().honouredKo])
    for (const m of text.matchAll(pattern)) found.push({ kind: "name", start: m.index, end: m.index + m[0].length });
  return found;
}
