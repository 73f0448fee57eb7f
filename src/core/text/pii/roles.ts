/**
 * What the writer does and where: a job title ("backend lead", "Housing Officer", "responsable
 * administrative", "Prezes Zarządu") where the writer presents themselves, and the employer after
 * it ("… @ Fernhill Logistics", "… at Brackenbury Housing Association"). A title is found by its
 * head noun (a closed class, listed per language below) and taken only where it says who someone
 * is: after "as a" / "I'm the" / "our old", before "at" / "@" and a name, or as a part of a
 * signature set off by "|", "·" or "–". "The manager approved it" keeps its word.
 */
import { caseless } from "../ticket-phrases";
import type { Span } from "./kinds";

/** Head nouns of job titles. English, German and Dutch put the head last; the Romance and Slavic languages first. */
const HEAD_LAST = caseless([
  "manager|lead|leader|officer|assistant|teacher|engineer|developer|director|head|coordinator|administrator|admin|analyst|consultant|specialist|executive|accountant|owner|founder|co-founder|president|secretary|clerk|representative|supervisor|designer|architect|nurse|controller|bookkeeper|recruiter|partner|principal|ceo|cto|cfo|coo|cio|vp|intern|technician|buyer|planner|advisor|adviser|editor|producer|agent|associate",
  "leiter|leiterin|entwickler|entwicklerin|geschäftsführer|geschäftsführerin|referent|referentin|sachbearbeiter|sachbearbeiterin|assistent|assistentin|buchhalter|buchhalterin|inhaber|inhaberin|beauftragter|beauftragte|medewerker|directeur|beheerder|eigenaar",
]);
const HEAD_FIRST = caseless([
  "responsable|développeur|développeuse|directeur|directrice|chef|gérant|gérante|assistante?|comptable|chargée?|ingénieur|ingénieure",
  "desarrollador|desarrolladora|gerente|director|directora|jefe|jefa|encargado|encargada|coordinador|coordinadora|contador|contadora",
  "responsabile|direttore|direttrice|sviluppatore|sviluppatrice|impiegato|impiegata|titolare|diretor|diretora|desenvolvedor|desenvolvedora|analista|coordenador|coordenadora",
  "prezes|kierownik|kierowniczka|dyrektor|dyrektorka|specjalista|specjalistka|księgowa|księgowy|właściciel|właścicielka",
]);
const WORD = String.raw`[\p{L}\d&'’-]+`;
/** Words a title's modifiers never are: articles, possessives, prepositions, conjunctions, verbs of being. */
const FUNCTION_WORD = caseless([
  "the|a|an|our|my|your|their|his|her|and|or|is|was|are|were|i|we|you|to|of|for|at|in|on|as|with|by|from|new|old|former|asked|told|called|this|that",
  "chez|de|du|des|en|et|à|a|au|y|e|el|la|le|les|los|las|il|lo|per|para|con|pour|bei|und|der|die|das|w|na|i|oraz|z|ze",
]);
const MODIFIER = String.raw`(?!(?:${FUNCTION_WORD})(?![\p{L}]))${WORD}`;
/** "backend lead", "Head of Finance", "year 4 teacher", "responsable administrative", "Desarrollador backend". */
const TITLE = String.raw`(?:(?:${MODIFIER}\s+){0,3}?(?:${HEAD_LAST})(?:\s+of\s+${WORD}(?:\s+${WORD})?)?|(?:${HEAD_FIRST})(?:\s+(?:(?:de|du|des|del|di|da)\s+)?${MODIFIER}){0,2})(?![\p{L}])`;

/** Before a title: the writer saying what they are ("as a", "I'm the new", "our old", "je suis", "soy"). */
const PRESENTS = caseless([
  String.raw`as (?:an?|the|our)|i'?m (?:an?|the)|i am (?:an?|the)|(?:our|my) (?:old |former |new )?|(?:the|a) (?:old|former|new)|je suis|en tant que|soy|como|sono|come|sou|als|ich bin|jestem`,
]);
/** After a title: where the writer works ("at", "@", "bei", "chez", "en", "presso", "na", "w"); not "with", which names tools ("developer with React"). */
const AT = String.raw`(?:\s*@\s*|\s+(?:${caseless(["at|for|bei|chez|en|presso|na|no|w|bij"])})\s+)`;
/** An employer: capitalised words ("Fernhill Logistics", "Harwick & Doyle Solicitors"), or any words after "@". */
const EMPLOYER = String.raw`(?:\p{Lu}[\p{L}\d&'’.-]*(?:\s+(?:&\s+|of\s+|de\s+)?\p{Lu}[\p{L}\d&'’.-]*){0,4})`;

const TITLE_AT = new RegExp(
  String.raw`(?<![\p{L}])(${TITLE})(${AT})(${EMPLOYER}|(?<=@\s*)${WORD}(?:\s+${WORD}){0,3}?(?=[.,;:!?)\n]|$))`,
  "gu",
);
const ARTICLE = caseless(["the|a|an|der|die|das|le|la|l'|el|un|une|una|il|lo|o|de|het|een"]);
const PRESENTED = new RegExp(String.raw`(?<![\p{L}])(?:${PRESENTS})\s*(?:(?:${ARTICLE})\s*)?(${TITLE})(?![\p{L}])`, "gu");
/** A signature's part: "[name] · Desarrollador backend · Cometa Labs", "Rosa Jimenez | Office Manager | Pinecrest". */
const SIGNATURE_PART = new RegExp(String.raw`(?<=[|·–—]\s*)(${TITLE})(?=\s*(?:[|·–—,]|$))`, "gmu");

export function roles(text: string): Span[] {
  const found: Span[] = [];
  for (const m of text.matchAll(TITLE_AT)) {
    const [, title, at, words] = m;
    // The employer ends with its sentence: "Pine Street Dental. How many …".
    const employer = words!.split(/[.!?](?=\s|$)/u)[0]!;
    found.push({ kind: "role", start: m.index, end: m.index + title!.length });
    const start = m.index + title!.length + at!.length;
    if (employer) found.push({ kind: "company", start, end: start + employer.length });
  }
  for (const m of text.matchAll(PRESENTED)) {
    const start = m.index + m[0].length - m[1]!.length;
    found.push({ kind: "role", start, end: start + m[1]!.length });
  }
  for (const m of text.matchAll(SIGNATURE_PART)) found.push({ kind: "role", start: m.index, end: m.index + m[0].length });
  return found;
}
