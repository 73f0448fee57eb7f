/**
 * Month and weekday names in the languages tickets come in, from the runtime's own calendar data
 * (Intl), not a list of ours: as a month stands alone ("Juni"), abbreviated ("Nov"), and in the form
 * a date gives it ("17 listopada", "12 de mayo").
 */
const LOCALES = [
  "en",
  "de",
  "fr",
  "es",
  "pt",
  "it",
  "nl",
  "pl",
  "sv",
  "da",
  "nb",
  "fi",
  "cs",
  "tr",
  "id",
  "vi",
  "ro",
  "hu",
  "el",
  "ru",
  "uk",
];

let words: { names: Set<string>; months: string[] } | null = null;

function calendar() {
  if (words) return words;
  const names = new Set<string>();
  const months = new Set<string>();
  const capitalised = (w: string) => w.charAt(0).toLocaleUpperCase() + w.slice(1);
  for (const locale of LOCALES) {
    const month = new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" });
    const short = new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" });
    const inDate = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", timeZone: "UTC" });
    const day = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
    for (let m = 0; m < 12; m++) {
      const at = Date.UTC(2024, m, 15);
      names.add(capitalised(month.format(at)));
      for (const form of [month.format(at), short.format(at), inDate.formatToParts(at).find((p) => p.type === "month")!.value])
        months.add(form.toLowerCase().replace(/\.$/u, ""));
    }
    for (let d = 0; d < 7; d++) names.add(capitalised(day.format(Date.UTC(2024, 0, 1 + d))));
  }
  words = { names, months: [...months].filter((m) => /^\p{L}{3,}$/u.test(m)).sort((a, b) => b.length - a.length) };
  return words;
}

/** Month and weekday names, capitalised ("Mai", "Juli", "Mercredi"): no one's given name. */
export const calendarWords = (): ReadonlySet<string> => calendar().names;

/** Month names in lower case, longest first (for an alternation): long, short, and as a date writes them. */
export const monthNames = (): readonly string[] => calendar().months;
