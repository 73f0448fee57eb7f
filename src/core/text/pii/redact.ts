/**
 * A text with its personal details taken out: each becomes a placeholder that says its kind
 * ("[phone]", "[email]"), so the sentence around it still reads, except a self-introduction, which
 * goes whole ("I'm Ravi from Umbrella Corp and we moved …" → "We moved …"). Names the ticket told
 * elsewhere (who greeted, who signed) are taken out wherever they recur.
 */
import { findPersonalDetails } from "./detect";
import { withoutDose } from "./health";
import { CASELESS_SCRIPT, isEnglishWord, isGivenName } from "./names";
import type { PersonalKind, Removal, Span } from "./kinds";

/** What a reader sees in place of a removed detail. */
export const PLACEHOLDER: Readonly<Record<PersonalKind, string>> = {
  name: "[name]",
  company: "[company]",
  role: "[role]",
  email: "[email]",
  phone: "[phone]",
  address: "[address]",
  card: "[card]",
  iban: "[iban]",
  national_id: "[id number]",
  date_of_birth: "[date]",
  health: "[health]",
  credential: "[secret]",
  ip: "[ip]",
  url: "[link]",
  customer_id: "[number]",
  quoted_mail: "",
  device_signoff: "",
  greeting: "",
  signature: "",
  introduction: "",
};

/** Any placeholder in a cleaned text (and the pipeline's older "[ticket]"). */
const ANY_PLACEHOLDER = String.raw`\[(?:${[...new Set([...Object.values(PLACEHOLDER).filter(Boolean), "[ticket]"])].map((p) => p.slice(1, -1)).join("|")})\]`;
/** Every placeholder in a text: a new expression each time, as a global one keeps its place between uses. */
export const placeholders = (): RegExp => new RegExp(ANY_PLACEHOLDER, "gu");
export const hasPlaceholder = (text: string): boolean => new RegExp(ANY_PLACEHOLDER, "u").test(text);

export interface Redacted {
  text: string;
  removals: Removal[];
}

/**
 * `known`: details the ticket told elsewhere (a name that signed, a number in the other field), taken
 * out wherever they recur. `vocabulary`: words the knowledge base itself says (lower case): a name or
 * company made only of them is the product's word ("Alexa", "Okta"), and so is a code it says
 * ("SKU-448812"): they stay.
 */
export function redactPersonalDetails(text: string, known: readonly Removal[] = [], vocabulary: ReadonlySet<string> = NONE): Redacted {
  const ours = (span: Span) => {
    if (vocabulary.size === 0) return false;
    const value = text.slice(span.start, span.end);
    if (span.kind === "customer_id") return vocabulary.has(value.toLowerCase());
    return (
      (span.kind === "name" || span.kind === "company") &&
      (value.match(/[\p{L}\p{N}'’-]+/gu) ?? []).every((w) => vocabulary.has(w.toLowerCase()))
    );
  };
  // A private address too: it is the customer's own network, nothing another customer asks about.
  const spans = [...findPersonalDetails(text), ...knownSpans(text, known)]
    .filter((span) => !ours(span))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const removals: Removal[] = [];
  let out = "";
  let at = 0;
  let capitalize = false;
  const append = (piece: string) => {
    out += capitalize ? piece.replace(/^(\s*)(\p{Ll})/u, (_, space: string, c: string) => space + c.toUpperCase()) : piece;
    capitalize = false;
  };
  for (const span of spans) {
    if (span.start < at) continue;
    append(text.slice(at, span.start));
    removals.push({ kind: span.kind, text: text.slice(span.start, span.end) });
    if (span.drop) {
      // The clause and the word that joined it to the rest: "I'm Ravi from Umbrella Corp and we …" → "We …"
      at = span.end + /^\s*(?:[.!?。！？]+|,|(?:and|und|et|y|e|en)(?![\p{L}]))?\s*/iu.exec(text.slice(span.end))![0].length;
      capitalize = out.trim() === "" || /[.!?。！？]\s*$/u.test(out);
      continue;
    }
    append(PLACEHOLDER[span.kind]);
    at = span.end;
  }
  append(text.slice(at));
  return { text: out.replace(/[ \t]{2,}/g, " "), removals };
}

/**
 * Every mention of a detail the ticket told elsewhere: whole, and a name also by its parts
 * ("Dana Whitfield", "Dana"), an address also by its street ("4417 Birchwood Avenue, …" →
 * "Birchwood Avenue").
 */
/** Japanese honorifics a greeting adds to a name: "Yamamoto-san" is Yamamoto. */
const HONORIFIC = /-(?:san|sama|sensei|kun|chan|shi)\b/giu;
const NONE: ReadonlySet<string> = new Set();
/** A surname's particle is no name alone ("Van den Bosch" is not "van" wherever it stands). */
const PARTICLE = /^(?:de|da|van|von|der|den|del|della|di|du|le|la|los|las|dos|das|bin|al|ten|ter)$/iu;
/** Capitalised words that are no one's given name before a surname: a sentence's function words. */
const SENTENCE_WORD =
  /^(?:I|The|A|An|My|Our|Your|Dear|Hi|Hello|Mr|Mrs|Ms|Dr|Herr|Frau|Der|Die|Das|Le|La|Les|El|Los|Las|Il|Lo|De|Het|Een)$/u;

const CASELESS_WORD = new RegExp(String.raw`^[${CASELESS_SCRIPT}\p{M}]+$`, "u");

function knownSpans(text: string, known: readonly Removal[]): Span[] {
  const pieces = new Map<string, PersonalKind>();
  for (const { kind, text: value } of known) {
    if (value.trim().length < 3 || !(kind in PLACEHOLDER) || PLACEHOLDER[kind] === "" || PARTICLE.test(value.trim())) continue;
    pieces.set(value, kind);
    if (kind === "name")
      for (const part of value.replace(HONORIFIC, "").split(/\s+/))
        if (
          (part.length >= 3 && /^\p{Lu}/u.test(part) && !PARTICLE.test(part) && (isGivenName(part) || !isEnglishWord(part))) ||
          (part.length >= 2 && /^\p{Script=Han}+$/u.test(part) && value.includes(" ")) ||
          // A full name in a script without capitals ("ناصر محمد الشهري", "सुनीता शर्मा"): each part is the person ("الأستاذ ناصر").
          (part.length >= 3 && CASELESS_WORD.test(part) && value.includes(" "))
        )
          pieces.set(part.replace(/[.,]$/, ""), kind);
    // A medicine told with its dose is the same medicine named without it ("metformin 500 mg" … "her metformin").
    const undosed = kind === "health" ? withoutDose(value) : value;
    if (undosed !== value && undosed.length >= 4) pieces.set(undosed, kind);
    if (kind === "address") {
      const street = value
        .split(",")[0]!
        .replace(/\d+[a-z]?(?:\/\d+)?/giu, "")
        .trim();
      if (street.split(/\s+/).length >= 2) pieces.set(street, kind);
    }
  }
  const spans: Span[] = [];
  for (const [piece, kind] of pieces) {
    const escaped = piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // A name the ticket told is a name in any case ("Hi Marek," … "marek, backend lead"), unless it is also a word ("Will").
    const caseless = kind === "name" && !piece.split(/\s+/).every((word) => isEnglishWord(word)) ? "i" : "";
    const pattern = /\p{Script=Han}/u.test(piece)
      ? new RegExp(escaped, "gu")
      : new RegExp(String.raw`(?<![\p{L}\p{N}])${escaped}(?![\p{L}\p{N}])`, `gu${caseless}`);
    for (const m of text.matchAll(pattern)) {
      // A capitalised word before a known surname is the given name: "Takeshi Yamamoto" after "Dear Yamamoto-san".
      const before = kind === "name" ? /(\p{Lu}[\p{L}'’-]+)[ \t]+$/u.exec(text.slice(Math.max(0, m.index - 30), m.index)) : null;
      // Opening a sentence, it is the sentence's first word unless it is a given name ("Saya Nurul …": Malay's "I").
      const opens = before !== null && /(?:^|[.!?。！？\n])[ \t]*$/u.test(text.slice(0, m.index - before[0].length));
      const given = before && !isEnglishWord(before[1]!) && !SENTENCE_WORD.test(before[1]!) && (!opens || isGivenName(before[1]!));
      const start = given ? m.index - before[0].length : m.index;
      spans.push({ kind, start, end: m.index + m[0].length });
    }
  }
  return spans;
}
