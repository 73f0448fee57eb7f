/**
 * Health details: a condition, injury, treatment or medicine where the sentence tells of a person
 * ("my mother was admitted with pneumonia", "I take metformin"). The words are WordNet's
 * (tables/health-terms.json, scripts/build-health-terms.mjs: nouns whose usual sense is a disease,
 * an injury, a symptom, a disability, a medicine or a medical procedure, in English). A sentence with
 * no person in it keeps its words: "Does the plan cover physiotherapy?" is the product's question.
 * A medicine with its dose is one in any language and any sentence: a ticket names a dose for a person.
 * In other languages the words are the same things' names in the Open Multilingual Wordnet
 * (tables/health-terms-world.json, scripts/build-health-terms-world.mjs: "astma", "zapalenie płuc",
 * "哮喘"), kept only where every sense a word has is a health one.
 */
import healthTable from "../tables/health-terms.json";
import worldTable from "../tables/health-terms-world.json";
import type { Span } from "./kinds";
import { isEnglishWord } from "./names";

let terms: ReadonlySet<string> | null = null;
let world: ReadonlySet<string> | null = null;
let worldStems: ReadonlySet<string> | null = null;
/** The shortest stem an inflected word is read by: shorter ones are shared by too many words ("varios", "erreur"). */
const MIN_STEM = 6;
/** "cukrzyca" → cukrzyc: a word less its ending, for the table's one-word terms in their other cases. */
const stemsOf = (word: string) => (word.length > MIN_STEM ? [word.slice(0, -1)] : []);

/**
 * A word of the other languages in another case than the table's ("cukrzycę", "insulinę"): the same stem with another
 * last letter, in a script that inflects by endings, and no English word ("gripped").
 */
function inflectedWorldTerm(word: string): boolean {
  if (word.length <= MIN_STEM || !/^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]+$/u.test(word)) return false;
  worldStems ??= new Set([...world!].filter((t) => !t.includes(" ")).flatMap(stemsOf));
  return stemsOf(word).some((stem) => worldStems!.has(stem)) && !isEnglishWord(word);
}
/** The longest term, in words ("type ii diabetes"). */
const MAX_WORDS = 4;

/** Someone the ticket tells of: the writer, the people they speak for, their family. */
const PERSON =
  /\b(?:i|i'm|i've|i'd|me|my|myself|we|our|us|he|she|him|her|his|hers|mum|mom|mother|dad|father|son|daughter|wife|husband|partner|child|kid|baby|brother|sister|grandmother|grandfather|grandma|grandpa|patient)\b/iu;

/** An amount in a unit doses are written in: "1000 mg", "75 mcg", "100mg", "1000 IU". */
const DOSE = String.raw`[ \t]?\d+(?:[.,]\d+)?[ \t]?(?:mg|mcg|µg|μg|IU|UI|I\.E\.|IE)`;
/**
 * A medicine named with its dose, in any language ("Metformin 1000 mg", "Xarelto 20 mg", "Euthyrox 75 mcg",
 * "Vitamin D 1000 IU", "Metformin XR 500 mg", "자누비아 100mg"): a brand or substance, capitalised with a short
 * qualifier in a cased script, any word in a caseless one, and an amount in a unit doses are written in.
 */
const DOSED_MEDICINE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:\p{Lu}[\p{L}-]+(?:[ \t]\p{Lu}[\p{L}]{0,2})?|\p{Lo}{2,})${DOSE}(?!\p{Script=Latin})`,
  "gu",
);
/** The same in lower case ("bisoprolol 2.5 mg"): a medicine when no English word ("take 5 mg", "about 500 mg"). */
const DOSED_LOWER = new RegExp(String.raw`(?<![\p{L}\p{N}])(\p{Ll}[\p{Ll}-]{4,})${DOSE}(?![\p{L}\p{N}])`, "gu");
const TRAILING_DOSE = new RegExp(`${DOSE}$`, "u");

/** A dosed medicine named without its dose ("metformin 500 mg" → "metformin"), as a ticket names it again; the text itself when it has none. */
export const withoutDose = (medicine: string): string => medicine.replace(TRAILING_DOSE, "");

export function healthDetails(text: string): Span[] {
  terms ??= new Set(healthTable.terms.split("|"));
  world ??= new Set(worldTable.terms.split("|"));
  const found: Span[] = [...text.matchAll(DOSED_MEDICINE), ...[...text.matchAll(DOSED_LOWER)].filter((m) => !isEnglishWord(m[1]!))].map(
    (m) => ({
      kind: "health" as const,
      start: m.index,
      end: m.index + m[0].length,
    }),
  );
  for (const sentence of text.matchAll(/[^.!?。！？\n]+/gu)) {
    const aboutSomeone = PERSON.test(sentence[0]);
    const named = (phrase: string) =>
      world!.has(phrase) || (aboutSomeone && singularOrSelf(phrase).some((p) => terms!.has(p))) || inflectedWorldTerm(phrase);
    const words = [...sentence[0].matchAll(/[\p{L}\p{M}][\p{L}\p{M}'’-]*/gu)];
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(MAX_WORDS, words.length - i); n >= 1; n--) {
        const last = words[i + n - 1]!;
        const phrase = words
          .slice(i, i + n)
          .map((w) => w[0].toLowerCase())
          .join(" ");
        if (!named(phrase)) continue;
        found.push({ kind: "health", start: sentence.index + words[i]!.index, end: sentence.index + last.index + last[0].length });
        i += n - 1;
        break;
      }
    }
    for (const run of sentence[0].matchAll(UNSPACED)) found.push(...namedWithin(run[0], sentence.index + run.index));
  }
  return found;
}

/** A run of a script written without spaces between words ("我父亲有糖尿病"): its words are read as substrings. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]{2,}/gu;
const LONGEST_UNSPACED = 8;

/** The health words inside an unspaced run, the longest at each place. */
function namedWithin(run: string, at: number): Span[] {
  const found: Span[] = [];
  for (let i = 0; i < run.length - 1; i++) {
    for (let n = Math.min(LONGEST_UNSPACED, run.length - i); n >= 2; n--) {
      if (!world!.has(run.slice(i, i + n))) continue;
      found.push({ kind: "health", start: at + i, end: at + i + n });
      i += n - 1;
      break;
    }
  }
  return found;
}

/** "allergies" → allergy, "migraines" → migraine: the table holds the singular. */
function singularOrSelf(phrase: string): string[] {
  return [phrase, phrase.replace(/ies$/u, "y"), phrase.replace(/es$/u, ""), phrase.replace(/s$/u, "")];
}
