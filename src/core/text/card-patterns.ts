/**
 * Memory-card extraction rules (seed 003, Phase 2), as data. Each rule reads one clause; the
 * `value` group is what the card stores. Chinese rules follow the seed's regexes; English ones
 * are their counterparts. Single-valued slots keep one current value (newest wins); multi-valued
 * slots (likes, goals, children …) collect values.
 *
 * Kinds and slots (entity "user" throughout):
 * | kind         | slots                                              |
 * |--------------|----------------------------------------------------|
 * | profile      | user_type, name, location, employer, age, language (multi) |
 * | fact         | device                                             |
 * | preference   | likes, dislikes, diet (all multi)                  |
 * | relationship | partner, child (multi), pet (multi)                |
 * | event        | event (multi: milestones, appointments, trips), birthday |
 * | goal         | goal (multi)                                       |
 */
import { type CardRule, user } from "./card-rule";
import { RELATION_RULES } from "./card-relations";
import { ZH_CARD_RULES } from "./card-rules-zh";
import { EN_ADVERBS, EN_DEVICES, EN_DIET_FOODS, EN_PASTIMES, EN_PROPER, EN_ROLES, GOAL_VERBS } from "./card-words";

// Rules are tried in order and a clause yields at most one card per slot; negative
// preferences come before positive ones so "我不喜欢" is not read as "我喜欢".
export const CARD_RULES: readonly CardRule[] = [
  ...ZH_CARD_RULES,
  // English
  user(
    "profile",
    "name",
    0.9,
    /\b(?:my (?:first |full )?name is|my name's|call me|calls me|i go by|i(?:'m| am) called) (?<value>[\p{L}][\p{L}' -]{0,40}?)(?=[,.!;]| and | but |$)/iu,
  ),
  user("profile", "name", 0.7, /\b[Ii](?:'m| am) (?<value>\p{Lu}[\p{Ll}'-]+)(?=\s*[,.!;]|\s*$)/u),
  // I'm vegetarian / I'm a vegan / I'm on a keto diet / I eat halal — before user_type: a diet is no role
  user(
    "preference",
    "diet",
    0.8,
    /\bi(?:'m| am|'ve been| have been)? (?:(?:a|an|now|currently|strictly|mostly|fully|also|still|only|eat|keep|on a|on the) )*(?<value>vegetarian|vegan|pescatarian|pescetarian|keto|paleo|gluten-free|dairy-free|plant-based|halal|kosher)\b(?! (?:restaurants?|recipes?|options?|menus?)\b)/iu,
  ),
  user(
    "profile",
    "user_type",
    0.8,
    new RegExp(
      `(?:\\bi(?:'m| am| work as|'ve been| have been|'m working as| am working as)|^as|\\bmy (?:job title|role) is) (?:an?|the) (?<value>(?:[\\w-]+ ){0,4}(?:${EN_ROLES}))\\b(?!(?<=fan|enthusiast) of)`,
      "iu",
    ),
  ),
  user("profile", "user_type", 0.75, new RegExp(`\\bmy (?:job title|role) is (?<value>(?:[\\w-]+ ){0,3}(?:${EN_ROLES}))\\b`, "iu")),
  // Roles said as adjectives
  user(
    "profile",
    "user_type",
    0.75,
    /\bi(?:'m| am) (?:now |currently )?(?<value>retired|self-employed|unemployed|a stay-at-home (?:mom|dad|parent))\b/iu,
  ),
  user(
    "profile",
    "location",
    0.8,
    /\b(?:i|we)(?:'m| am| are|'re|'ve been| have been)? (?:(?:currently|now|just|recently|also|still) )*(?:live (?:(?:just )?(?:in|near|outside))|living (?:(?:just )?(?:in|near|outside))|moved (?:back )?to|relocated to|based in|located in|reside in|residing in|staying in|(?:bought|own|rent|rented) (?:a|an|our|my) (?:new )?(?:house|home|apartment|flat|condo|place) in) (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so | since | in (?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|\d{4})\b|$)/iu,
  ),
  // I'm a designer based in Berlin / Currently living in Lisbon (no subject, at the start)
  user(
    "profile",
    "location",
    0.75,
    /(?:\bi(?:'m| am)\b[^,.;]{0,40}? based (?:in|out of)|^(?:currently |now )?(?:living|based) in) (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so | since |$)/iu,
  ),
  // I've lived in Denver since 2015 (a plain "I lived in" is past: no card)
  user(
    "profile",
    "location",
    0.75,
    /\b(?:i|we)(?:'ve| have) (?:(?:always|now|also) )?lived in (?<value>[\p{L}][\p{L}\p{N} .'-]{0,40}?)(?=[,.!;?]| and | but | with | for | so | since |$)/iu,
  ),
  // "there" after an end ("I don't live there anymore"): the current location (see cards.ts)
  user("profile", "location", 0.75, /\b(?:i|we)(?:'m| am| are|'re)? (?:live|living) (?<value>there|here)\b/iu),
  user(
    "profile",
    "employer",
    0.75,
    /\b(?:i(?:'m| am|'ve| have)? (?:(?:currently|now|also|still|been) )*(?:work|worked|working|intern|interning)(?: (?:remotely|full-time|part-time|in [\p{L}]+))? (?:at|for)|i (?:work|worked) as an? [\p{L} -]{1,40}? at|my (?:employer|company) is|i(?:'m| am) employed (?:at|by)|i (?:just |recently )?(?:got (?:a job|hired|an offer) (?:at|by|with|from)|started (?:a new job |working )?at)) (?<value>[\p{L}\p{N}][\p{L}\p{N} .&'-]{0,40}?)(?=[,.!;?]| as | and | but | on | in | since |$)/iu,
  ),
  user("profile", "employer", 0.7, /\b(?:[Jj]oined|[Ss]tarted at) (?<value>\p{Lu}[\p{L}\p{N}&.'-]*(?: \p{Lu}[\p{L}\p{N}&.'-]*)*)/u),
  // "there" after an end ("I don't work there anymore"): the current employer
  user("profile", "employer", 0.75, /\bi(?:'m| am)? (?:work|working) (?<value>there|here)\b/iu),
  user(
    "fact",
    "device",
    0.7,
    /\b(?:my (?<what>phone|laptop|computer|tablet) is an?|i (?:(?:mainly|mostly|usually|also|still|now) )?use an?|i(?:'m| am) using an?) (?<value>[\p{L}\p{N}][\p{L}\p{N} .+-]{0,30}?)(?=[,.!;?]| and | but | for |$)/iu,
    { detail: "device" },
  ),
  user(
    "fact",
    "device",
    0.7,
    new RegExp(
      `\\bi(?:'m| am)? ${EN_ADVERBS}(?:have|got|bought|switched (?:from [\\p{L}\\p{N} ]{1,20}? )?to|upgraded (?:from [\\p{L}\\p{N} ]{1,20}? )?to|on) an? (?:(?:brand )?new )?(?<value>(?:[\\p{L}\\p{N}-]+ ){0,2}(?:${EN_DEVICES})\\b[\\p{L}\\p{N} +-]{0,20}?)(?=[,.!;?]| and | but | for |$)`,
      "iu",
    ),
    { detail: "device" },
  ),
  user(
    "preference",
    "dislikes",
    0.7,
    new RegExp(
      `\\bi(?:'m| am)? ${EN_ADVERBS}(?:don't like|do not like|hate|dislike|detest|loathe|can't stand|cannot stand|not (?:a|much of a) (?:big |huge )?fan of) (?:it when )?(?<value>[\\p{L}\\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
    { polarity: "negative" },
  ),
  user(
    "preference",
    "likes",
    0.7,
    new RegExp(
      `\\b(?:i ${EN_ADVERBS}(?:like|love|enjoy|prefer|adore)|i(?:'d| would) (?:rather|prefer)|i(?:'m| am) ${EN_ADVERBS}(?:an? (?:big |huge )?fan of|passionate about|fond of|obsessed with|crazy about)|my favou?rite [\\p{L} ]{1,20}? is|my hobb(?:y is|ies are)) (?<value>[\\p{L}\\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
    { polarity: "positive" },
  ),
  // Sushi is my favorite food
  user(
    "preference",
    "likes",
    0.7,
    /^(?!(?:this|that|it|these|those|which|what)\b)(?<value>[\p{L}\p{N}][^,.!;?]{0,40}?) (?:is|are) my (?:absolute )?favou?rite\b/iu,
    { polarity: "positive" },
  ),
  // I don't eat pork / I never eat red meat → "no pork"
  user(
    "preference",
    "diet",
    0.75,
    new RegExp(
      `\\bi (?:don't|do not|never|can't|cannot) (?:eat|drink) (?:any )?(?<value>${EN_DIET_FOODS}|alcohol|caffeine|coffee|milk)\\b`,
      "iu",
    ),
    { value: (m) => `no ${m.groups?.value ?? ""}` },
  ),
  // I play the guitar / I play tennis on weekends: an instrument or a sport is a pastime
  user("preference", "likes", 0.7, new RegExp(`\\bi ${EN_ADVERBS}play (?:the )?(?<value>${EN_PASTIMES})\\b`, "iu"), {
    polarity: "positive",
  }),
  user("profile", "age", 0.8, /\bi(?:'m| am| just turned) (?<value>\d{1,3})(?: years old|(?=[,.!;?]|$))/iu),
  // I speak French and English / my native language is Portuguese / I'm fluent in German
  user(
    "profile",
    "language",
    0.75,
    /\b(?:[Ii] (?:(?:also|mostly|only) )?speak|[Ii](?:'m| am) fluent in|[Mm]y (?:native|first|mother) (?:language|tongue) is) (?<value>\p{Lu}[\p{L} ,]{1,40}?)(?=[.!;?]| at | with | but |$)/u,
  ),
  ...RELATION_RULES,
  user(
    "event",
    "birthday",
    0.8,
    /\b(?:my birthday is|i was born on) (?:on )?(?<value>(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d)[\p{L}\p{N} ]{0,20}?)(?=[,.!;?]| and | but |$)/iu,
  ),
  // Milestones: I just got married / I graduated from MIT / I had a baby
  user(
    "event",
    "event",
    0.75,
    new RegExp(
      `\\b[Ii](?:'ve| have)? ${EN_ADVERBS}(?<value>got (?:married|engaged|divorced|promoted)|graduated(?: from (?:the )?${EN_PROPER})?|retired|had (?:a baby(?: (?:boy|girl))?|twins|surgery)|became an? (?:dad|mom|father|mother|parent|grandparent|citizen))\\b`,
      "u",
    ),
  ),
  // Milestones coming: I'm getting married in June / I'm having a baby ("I'm retired" is a user type)
  user(
    "event",
    "event",
    0.75,
    new RegExp(
      `\\b[Ii](?:'m| am|'ll be| will be) ${EN_ADVERBS}(?<value>getting (?:married|engaged|divorced)|having (?:a baby|surgery)|expecting (?:a baby|a child|my first (?:baby|child)|twins)|graduating|retiring)\\b`,
      "u",
    ),
  ),
  // I have a job interview on Friday / I have a flight to Tokyo tomorrow: a time must follow
  user(
    "event",
    "event",
    0.7,
    new RegExp(
      `\\b[Ii] (?:have|'ve got|got) (?:an? |my )?(?<value>(?:job |final |driving |doctor's |dentist |dental )?(?:interview|exams?|appointment|surgery|flight|trip|vacation)(?: to ${EN_PROPER})?)(?= (?:on|at|in|next|this|tomorrow|today|tonight|coming up)\\b)`,
      "u",
    ),
  ),
  // I'm flying to Tokyo next week / I'm visiting Paris in May: a named destination
  user(
    "event",
    "event",
    0.7,
    new RegExp(
      `\\b[Ii](?:'m| am|'ll be| will be) (?<value>(?:(?:going|travell?ing|flying|heading|driving)(?: on (?:vacation|holiday|a trip))? to|visiting) ${EN_PROPER})\\b`,
      "u",
    ),
  ),
  user(
    "goal",
    "goal",
    0.75,
    /\bmy (?:main |big |biggest |long-term |short-term |current |personal )?(?:goal|aim|dream|resolution|ambition)(?: for (?:this|next) year| this year)? is to (?<value>[\p{L}\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)/iu,
  ),
  // I'm planning to move to Canada / I'm saving up for a house / I'm training for a marathon
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `\\bi(?:'m| am) ${EN_ADVERBS}(?<value>(?:planning|hoping|aiming) to [\\p{L}\\p{N}][^,.!;?]{0,40}?|(?:saving(?: up)?|training|preparing|studying) for [\\p{L}\\p{N}][^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
    { value: (m) => (m.groups?.value ?? "").replace(/^(?:planning|hoping|aiming) to /iu, "") },
  ),
  // I want to learn Rust / I'm trying to lose weight: only verbs of a goal ("I want to cancel", "I'm trying to deploy" are tasks)
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `\\bi(?: ${EN_ADVERBS}(?:want|hope|plan|intend|aim|dream)|(?:'d| would) ${EN_ADVERBS}(?:like|love)|(?:'m| am) ${EN_ADVERBS}trying) to (?<value>(?:${GOAL_VERBS})\\b[^,.!;?]{0,40}?)(?=[,.!;?]|$)`,
      "iu",
    ),
  ),
  // I'm learning Japanese → "learn Japanese", the same goal as "I want to learn Japanese"
  user(
    "goal",
    "goal",
    0.7,
    new RegExp(
      `\\bi(?:'m| am) ${EN_ADVERBS}learning (?!(?:that|a lot|so much|more)\\b)(?<value>[\\p{L}\\p{N}][^,.!;?]{0,30}?)(?=[,.!;?]| at | in | with | for |$)`,
      "iu",
    ),
    { value: (m) => `learn ${m.groups?.value ?? ""}` },
  ),
];
