// `node scripts/build-names.mjs`: the people's names the ticket cleaning recognises
// (src/core/text/pii/names.ts), cut from the given names and surnames @faker-js/faker ships for its
// 77 locales (its person.first_name and person.last_name lists, gathered per language from public
// name statistics). Kept: the given names written in Latin, Greek or Cyrillic script (every locale's,
// so a Polish, Yoruba, Greek or Ukrainian customer is recognised as well as an English one), and the Chinese surnames
// (zh_CN, zh_TW), which mark a name before a title ("刘先生", "王女士"), and the Japanese ones (ja),
// which mark a name written surname, space, given name ("佐藤 花子"), and the Korean ones (ko), which
// mark a name before an honorific ("김민준 고객님"). Surnames in Latin script
// are not kept (14,000 more, about 48 KB gzipped): the cleaning takes a capitalised word after a
// given name for its surname. Writes src/core/text/tables/person-names.json (committed: the build
// needs no network, and a diff shows what a faker upgrade changes).
import { writeFileSync } from "node:fs";
import { allLocales } from "@faker-js/faker";

/** A given name in an alphabet that capitalises names: Latin, Greek or Cyrillic ("Noémie", "Δημήτρης", "Ірина"). */
const CAPITALISED_NAME = /^\p{Lu}(?:[\p{Script=Latin}'’-]+|[\p{Script=Greek}'’-]+|[\p{Script=Cyrillic}'’-]+)$/u;
const flat = (list) => (!list ? [] : Array.isArray(list) ? list : Object.values(list).flat());

const given = new Set();
for (const locale of Object.values(allLocales))
  for (const name of flat(locale.person?.first_name)) if (CAPITALISED_NAME.test(name) && name.length >= 2) given.add(name);
const zhSurnames = new Set([...flat(allLocales.zh_CN.person?.last_name), ...flat(allLocales.zh_TW.person?.last_name)]);
const jaSurnames = new Set(flat(allLocales.ja.person?.last_name).filter((name) => /^\p{Script=Han}+$/u.test(name)));
const koSurnames = new Set(flat(allLocales.ko.person?.last_name).filter((name) => /^\p{Script=Hangul}+$/u.test(name)));

const table = {
  source: "@faker-js/faker person.first_name (Latin script, all locales), zh_CN/zh_TW, ja and ko person.last_name",
  given: [...given].sort().join(" "),
  zhSurnames: [...zhSurnames].sort().join(" "),
  jaSurnames: [...jaSurnames].sort().join(" "),
  koSurnames: [...koSurnames].sort().join(" "),
};
const out = new URL("../src/core/text/tables/person-names.json", import.meta.url);
writeFileSync(out, JSON.stringify(table, null, 0) + "\n");
console.log(
  `${given.size} given names, ${zhSurnames.size} Chinese, ${jaSurnames.size} Japanese and ${koSurnames.size} Korean surnames → src/core/text/tables/person-names.json`,
);
