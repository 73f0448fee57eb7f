// `node scripts/build-health-terms-world.mjs <omw-data checkout> <cili checkout>`: the health words
// of src/core/text/tables/health-terms.json (English, from WordNet 3.1) in the other languages the
// Open Multilingual Wordnet holds ("zapalenie płuc", "astma", "θυρεοειδής", "二甲双胍"), for the ticket
// cleaning's health details (src/core/text/pii/health.ts). Each English word's first sense is carried
// to WordNet 3.0, which the wordnets of other languages are linked to, through the Collaborative
// Interlingual Index (globalwordnet/cili, CC BY 4.0; ili-map-pwn31.tab and ili-map-pwn30.tab); each
// language's lemmas of that synset are then read from omwn/omw-data (wns/*/wn-data-*.tab; each
// wordnet's licence is listed in the table). A lemma is kept only where every sense it has, in every
// one of those wordnets, as a noun or a verb, lies under health.ts's roots: "cura" (care, therapy) and "coma" stay out,
// "astma" and "penicilina" stay in; so does none that is also an English word of WordNet's. Writes
// src/core/text/tables/health-terms-world.json (committed: the build needs no network).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { conditionDepth, healthDepth } from "./support/health-roots.mjs";
import { indexEntries } from "./support/wordnet.mjs";

const [omw, cili] = process.argv.slice(2);
if (!omw || !cili)
  throw new Error("usage: node scripts/build-health-terms-world.mjs <omw-data checkout> <cili checkout> (git repositories)");
const git = (checkout, ...args) =>
  execFileSync("git", ["-C", checkout, ...args], { encoding: "utf8", maxBuffer: 256 << 20, stdio: ["ignore", "pipe", "ignore"] });

/** "00001740-a" in WordNet 3.1 → the same synset's id in WordNet 3.0, through the interlingual index. */
const ili = (file) =>
  new Map(
    git(cili, "show", `HEAD:${file}`)
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t")),
  );
const pwn30ByIli = new Map([...ili("ili-map-pwn30.tab")].map(([id, synset]) => [id, synset]));
const to30 = new Map([...ili("ili-map-pwn31.tab")].map(([id, synset]) => [synset, pwn30ByIli.get(id)]).filter(([, s]) => s));

const english = JSON.parse(readFileSync(new URL("../src/core/text/tables/health-terms.json", import.meta.url), "utf8")).terms.split("|");
const englishWords = new Set();
const firstSense = new Map();
for (const pos of ["noun", "verb", "adj", "adv"]) {
  for (const { lemma, offsets } of indexEntries(pos)) {
    englishWords.add(lemma.replaceAll("_", " "));
    if (pos === "noun") firstSense.set(lemma.replaceAll("_", " "), offsets[0]);
  }
}
/** The synsets the English table names, as WordNet 3.0 ids; with those at least DEEP steps below a root (build-health-terms.mjs's rule). */
const DEEP = 3;
const named = new Set(english.map((word) => to30.get(`${firstSense.get(word)}-n`)).filter(Boolean));
/**
 * Every synset under the roots, as a WordNet 3.0 id, and those a ticket's words are taken from: a
 * condition (a disease, an injury, a symptom…), or care at least CARE_DEPTH below its root (a named
 * medicine or operation: "salbutamol", "colecistectomía"), not a kind of care an insurer covers or a
 * pharmacy sells ("fysiotherapie", "处方药"): health.ts reads these with no person in the sentence.
 */
const CARE_DEPTH = 2;
const health = new Set();
const personal = new Set();
for (const { offsets } of indexEntries("noun")) {
  for (const offset of offsets) {
    const depth = healthDepth(offset);
    const synset = to30.get(`${offset}-n`);
    if (!Number.isFinite(depth) || !synset) continue;
    health.add(synset);
    if ((named.has(synset) || depth >= DEEP) && (Number.isFinite(conditionDepth(offset)) || depth >= CARE_DEPTH)) personal.add(synset);
  }
}

/** Hebrew and Arabic wordnets write their vowel points, which tickets leave out. */
const unpointed = (lemma) => (/[\p{Script=Hebrew}\p{Script=Arabic}]/u.test(lemma) ? lemma.replace(/\p{M}/gu, "") : lemma);
const LEMMA = /^[\p{L}\p{M}]+(?:[ '’-][\p{L}\p{M}]+)*$/u;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const files = git(omw, "ls-tree", "-r", "--name-only", "HEAD", "wns")
  .split("\n")
  .filter((f) => /\/wn-data-[a-z]{3}\.tab$/.test(f));
const sources = [];
const candidates = new Set();
const elsewhere = new Set();
for (const file of files) {
  let text;
  try {
    text = git(omw, "show", `HEAD:${file}`);
  } catch {
    continue; // stored outside git (large file): not in this snapshot
  }
  const [header, ...lines] = text.split("\n");
  if (!header.startsWith("#")) continue;
  const [name, language, , licence] = header.slice(1).trim().split("\t");
  sources.push(`${name.trim()} (${language}, ${licence.trim()})`);
  for (const line of lines) {
    const [synset, type, raw] = line.split("\t");
    if (!type?.endsWith(":lemma") || !raw) continue;
    const lemma = unpointed(raw.trim().toLowerCase());
    if (!health.has(synset)) {
      if (/-[nv]$/.test(synset)) elsewhere.add(lemma); // an adjective's sense may be the condition's own ("asma": asthmatic)
    } else if (personal.has(synset)) candidates.add(lemma);
  }
}
const long = (lemma) => [...lemma].length >= (UNSPACED.test(lemma) ? 2 : 4);
const terms = [...candidates]
  .filter((lemma) => LEMMA.test(lemma) && long(lemma) && !elsewhere.has(lemma) && !englishWords.has(lemma))
  .sort();
const table = {
  source: `Open Multilingual Wordnet (omwn/omw-data ${git(omw, "rev-parse", "--short", "HEAD").trim()}), the synsets of health-terms.json's words through the Collaborative Interlingual Index (globalwordnet/cili ${git(cili, "rev-parse", "--short", "HEAD").trim()}, CC BY 4.0)`,
  wordnets: sources.join("; "),
  terms: terms.join("|"),
};
writeFileSync(new URL("../src/core/text/tables/health-terms-world.json", import.meta.url), JSON.stringify(table, null, 0) + "\n");
console.log(`${terms.length} health terms in ${sources.length} wordnets → src/core/text/tables/health-terms-world.json`);
