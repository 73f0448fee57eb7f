/**
 * English synonyms from WordNet: two lemmas are synonyms when they share one of each other's most
 * frequent senses (buy / purchase, fix / repair, price / cost). Rarer senses are left out at build
 * time (scripts/build-lexicon.mjs), since "change" as "coins" would make any change a coin.
 */
import { englishLexicon } from "./lemma";

let senses: Map<string, number[]> | null = null;

function senseIndex(): Map<string, number[]> {
  if (senses) return senses;
  senses = new Map();
  englishLexicon().synonyms.forEach((set, id) => {
    for (const word of set.split(" ")) (senses!.get(word) ?? senses!.set(word, []).get(word)!).push(id);
  });
  return senses;
}

/** Do two lemmas share a frequent sense? */
export function areSynonyms(a: string, b: string): boolean {
  if (a === b) return true;
  const sa = senseIndex().get(a);
  const sb = senseIndex().get(b);
  return !!sa && !!sb && sa.some((id) => sb.includes(id));
}
