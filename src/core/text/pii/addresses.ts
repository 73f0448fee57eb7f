/**
 * Postal addresses, found by what every address has: a street with its number, in the order each
 * language writes them ("1420 Maple Avenue", "Hauptstraße 12", "15 rue des Lilas", "Calle Mayor
 * 23", "世纪大道100号"), or a PO box; then whatever completes it on the same line (apartment, postal
 * code, town, state), up to the sentence's end. In any other language, by a word that names a street
 * beside its number (streets.ts).
 */
import type { Span } from "./kinds";
import { streetAddresses } from "./streets";

const STREET_EN = String.raw`Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl|Terrace|Close|Square|Sq|Parkway|Pkwy|Highway|Hwy|Crescent|Cres|Parade|Pde|Row|Mews`;
/** A capitalised word; one a digit follows is a code ("H91", "T12"), not a word. */
const WORD = String.raw`(?:\p{Lu}[\p{L}'’.-]*(?![\p{L}'’.-]*\d))`;
/** The rest of an address after its street: ", Apt 3B", ", Springfield, IL 62704", ", 10115 Berlin", ", 3º B", " NW1 6XE", " H91 E2K3" (an Eircode). */
const REST = String.raw`(?:,?\s*(?:(?:apt|apartment|suite|unit|flat|floor|fl|apto|piso|étage|etage|stock|bus)\.?\s*[\p{L}\p{N}/-]+|\d+[ºª°]?\s*[A-Z]?\b|[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|[A-Z]\d[\dW]\s?[A-Z\d]{4}\b|\d{4,5}(?:-\d{3,4})?(?:\s+${WORD}(?:\s+${WORD}){0,2})?|${WORD}(?:\s+${WORD}){0,2}(?:,?\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?)?))*`;

const PATTERNS: readonly RegExp[] = [
  // 1420 Maple Avenue, Apt 3B, Springfield, IL 62704 · 22 Baker Street, London NW1 6XE
  new RegExp(String.raw`\b\d{1,5}[A-Za-z]?\s+(?:${WORD}\s+){1,3}(?:${STREET_EN})\b\.?${REST}`, "gu"),
  // Unit 7, Kinsale Road, Cork T12 X8Y4: the unit before a street without a number
  new RegExp(String.raw`\b(?:Unit|Apt|Apartment|Suite|Flat)\s+[\p{L}\p{N}/-]+,\s+(?:${WORD}\s+){1,3}(?:${STREET_EN})\b\.?${REST}`, "gu"),
  // Strandgata 12, 5013 Bergen · Rua Nova 8, 4000-442 Porto: in any language a street and its number, then a postal code and a
  // town, is an address, whatever the street is called
  new RegExp(
    String.raw`(?:${WORD}\s+){0,3}\p{L}[\p{L}'’.-]*\s+\d{1,5}[a-zA-Z]?(?:\/\d+)?,\s*\d{4,5}(?:-\d{3,4})?\s+${WORD}(?:\s+${WORD})?(?:,\s*${WORD})?`,
    "gu",
  ),
  // PO Box 4471, Anchorage, AK 99501
  new RegExp(String.raw`\b(?:P\.?\s?O\.?\s?Box|Postfach|Apartado|Caixa Postal|BP)\s+\d+${REST}`, "giu"),
  // Hauptstraße 12, 10115 Berlin · Mariahilfer Straße 45/7, 1060 Wien · Kerkstraat 5 · Storgatan 3 · Mannerheimintie 5
  new RegExp(
    String.raw`\b(?:${WORD}\s+)?${WORD}?(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|ufer|straat|laan|plein|gracht|gatan|gata|gaten|vägen|vej|veien|katu|tie|utca|Straße|Strasse|Weg|Gasse|Platz|Allee)\s+\d{1,4}[a-z]?(?:\/\d+)?${REST}`,
    "gu",
  ),
  // Thereses gate 42 B, 0354 Oslo · Pozsonyi út 38. · Kongens vej 5: the street's word after its name, in lower case
  new RegExp(
    String.raw`\b${WORD}\s+(?:gate|gata|gatan|vei|vej|väg|vägen|út|utca|u\.|tér|körút)\s+\d{1,4}(?:\s?[A-Za-z]\b)?\.?${REST}`,
    "gu",
  ),
  // 15 rue des Lilas, 69003 Lyon
  /\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai|route|cours)\s+[^,\n.!?]{2,40}(?:,\s*\d{5}\s+\p{Lu}[\p{L}' -]+)?/giu,
  // Calle Mayor 23, 3º B, 35001 Las Palmas · Rua das Flores 210, apto 52, 01310-100 São Paulo · Via Roma 10
  new RegExp(
    String.raw`\b(?:Calle|C\/|Avenida|Avda\.?|Av\.|Paseo|Plaza|Rua|Travessa|Alameda|Via|Viale|Piazza|Corso|Largo)\s+(?:[\p{L}'’.-]+\s+){0,4}\d{1,5}[a-z]?${REST}`,
    "gu",
  ),
  // ul. Marszałkowska 84/92 lok. 15, 00-514 Warszawa · al. Jerozolimskie 12
  new RegExp(
    String.raw`\b(?:ul\.|ulica|al\.|aleja|os\.|osiedle|pl\.)\s+(?:${WORD}\s+){0,3}\d{1,4}[a-z]?(?:\/\d+)?(?:\s+(?:lok|m)\.\s*\d+)?${REST}`,
    "gu",
  ),
  // 松仁路 100 號 8 樓 · 九龍觀塘鴻圖道 52 號 15 樓: a street, its number and 号, with or without the city before
  /\p{Script=Han}{1,4}(?:路|街|大道|道|巷|弄|段)\s*\d+\s*(?:号|號)(?:\s*\d+\s*(?:楼|樓|层|層|室))*/gu,
  // 上海市浦东新区世纪大道100号15楼
  /[\p{Script=Han}]{2,}(?:省|市|区|區|县|縣|镇|鎮)[\p{Script=Han}\p{N}\s]{0,20}?(?:路|街|道|巷|弄|大道|段)\s*\d+\s*(?:号|號)(?:\s*\d+\s*(?:楼|樓|层|層|室|单元|單元))*/gu,
  // "Address: …", "地址：…": whatever the label introduces, to the line's or sentence's end
  /(?<=\b(?:address|adresse|anschrift|dirección|direccion|indirizzo|endereço|morada|adres)\s*[:：]\s*)[^\n。;；]{6,100}?(?=\s*(?:\n|[。;；]|$))/giu,
  // "地址：…", "收货地址写的是…": a Chinese address is one clause, and says where (省, 市, 区, 路, 号 …)
  /(?<=(?:地址|住址)(?:是|为|為|写的是|寫的是)?\s*[:：]?\s*)(?![是为為写寫:：])(?=[^\n。;；，,]*[省市区區县縣镇鎮路街道巷弄号號])[^\n。;；，,]{4,60}?(?=\s*(?:\n|[。;；，,]|$|\s\p{Script=Han}{2,3}\s*(?:敬上|上|谨上|謹上)))/gu,
];

/** What may stand before a Chinese address in the same run of characters: its label, or the verb that sends something there ("寄至", "送到"). */
const ZH_LABEL = /^(?:\p{Script=Han}*?(?:地址|住址)(?:是|为|為|写的是|寫的是)?[:：]?\s*|[将將]?[寄送][至到往]|[在到至於于])/u;

export function addresses(text: string): Span[] {
  const found: Span[] = [];
  for (const pattern of PATTERNS)
    for (const m of text.matchAll(pattern)) {
      const value = m[0].replace(/[\s,.]+$/u, "");
      // A run of Chinese characters may hold the label before the address ("收货地址写的是上海市…"): the address starts after it.
      const label = ZH_LABEL.exec(value)?.[0].length ?? 0;
      if (/\d/.test(value)) found.push({ kind: "address", start: m.index + label, end: m.index + value.length });
    }
  return [...found, ...streetAddresses(text)];
}
