// `node scripts/build-address-terms.mjs <libpostal checkout>`: the words that name a street
// ("Road", "Caddesi", "ул.", "شارع", "רחוב", "ถนน", "ngõ") and a flat or unit within a building
// ("Apt", "кв.", "דירה", "daire") in every language libpostal's dictionaries cover, for the ticket
// cleaning's addresses (src/core/text/pii/addresses.ts). Source: libpostal
// (https://github.com/openvenues/libpostal, MIT licence, © 2015 openvenues),
// resources/dictionaries/<language>/street_types.txt and unit_types_numbered.txt, each line a
// canonical form and its abbreviations. Kept: forms of letters (spaces, hyphens and apostrophes
// inside) of at least 2 letters; a form that is only ever an abbreviation ("st", "ул", "exp") is listed as one too
// (streets.ts asks it, in a cased script, for a capital or its dot: "Rd", "ул.", not "exp"). Chinese, Japanese and
// Korean are left out (their streets are one run of characters with the number: addresses.ts reads
// them by their own patterns). Writes src/core/text/tables/address-terms.json (committed: the build
// needs no network, and a diff shows what a libpostal upgrade changes).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

const [checkout] = process.argv.slice(2);
if (!checkout) throw new Error("usage: node scripts/build-address-terms.mjs <libpostal checkout (a git repository)>");
const git = (...args) =>
  execFileSync("git", ["-C", checkout, ...args], { encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "ignore"] });
const commit = git("rev-parse", "HEAD").trim();
const DICTIONARIES = "resources/dictionaries";
const LEFT_OUT = new Set(["zh", "ja", "ko", "all"]);
const languages = git("ls-tree", "--name-only", `HEAD:${DICTIONARIES}`)
  .split("\n")
  .filter((l) => l && !l.includes(".") && !LEFT_OUT.has(l));

const FORM = /^[\p{L}\p{M}]+(?:[ '’-][\p{L}\p{M}]+)*$/u;
const letters = (form) => form.replace(/[^\p{L}\p{M}]/gu, "").length;

/** A dictionary's forms: each line's canonical form first, its abbreviations after ("street|st|str"); `abbreviations` gets those never canonical. */
function forms(file, abbreviations = new Set()) {
  const found = new Set();
  const canonical = new Set();
  for (const language of languages) {
    let text;
    try {
      text = git("show", `HEAD:${DICTIONARIES}/${language}/${file}`);
    } catch {
      continue; // this language has no such dictionary
    }
    for (const line of text.split("\n"))
      for (const [i, raw] of line.split("|").entries()) {
        const form = raw.trim().normalize("NFC").toLowerCase();
        if (!FORM.test(form)) continue;
        if (letters(form) < 2) continue;
        found.add(form);
        if (i === 0) canonical.add(form);
        else abbreviations.add(form);
      }
  }
  for (const form of canonical) abbreviations.delete(form);
  return [...found].sort();
}

const abbreviations = new Set();
const table = {
  source: `libpostal ${commit.slice(0, 12)} (MIT), ${DICTIONARIES}/*/street_types.txt and unit_types_numbered.txt; scripts/build-address-terms.mjs`,
  streets: forms("street_types.txt", abbreviations),
  units: forms("unit_types_numbered.txt", abbreviations),
  abbreviations: [...abbreviations].sort(),
};
writeFileSync(new URL("../src/core/text/tables/address-terms.json", import.meta.url), `${JSON.stringify(table)}\n`);
console.log(
  `${table.streets.length} street words, ${table.units.length} unit words (${table.abbreviations.length} only abbreviations) from ${languages.length} languages (libpostal ${commit.slice(0, 12)})`,
);
