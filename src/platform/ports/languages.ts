import { containsCjk } from "../../core/text/cjk";

/** canEmbed for a model that handles the given languages. */
export function languageGate(languages: readonly string[]): (text: string) => boolean {
  if (languages.includes("*")) return () => true;
  const cjk = languages.some((l) => l === "zh" || l === "ja" || l === "ko");
  return (text) => cjk || !containsCjk(text);
}
