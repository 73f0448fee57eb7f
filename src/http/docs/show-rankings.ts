/** The documents of a show's stored rankings and of the producer's override ("use anyway"). */
import { z } from "zod";
import { describe } from "../openapi/describe";
import { nullableString, obj } from "./common";
import { epochMs, filteredFields, pickFields, rankFields } from "./shows";

export const Override = obj({
  id: z.string(),
  questionId: z.string().describe("The question it recorded in the show, marked used"),
  text: z.string(),
  againstQuestionId: z.string().describe("The past question it was filtered against"),
  againstQuestion: z.string(),
  rankingId: nullableString,
  by: z.string().describe("The name of the key that overrode (its id when it has no name)"),
  at: epochMs,
}).meta({ id: "ShowOverride" });

export const Ranking = obj({
  id: z.string(),
  rankedAt: epochMs,
  by: z.string().describe("The name of the key that ranked (its id when it has no name)"),
  candidateCount: z.number().int(),
  picks: z.array(obj({ ...pickFields, wasUsed: z.boolean().describe("Marked used since (now)") })),
  filtered: z.array(obj({ ...filteredFields, override: Override.nullable().describe("Its “use anyway”, when there was one") })),
  ...rankFields,
  asked: obj({
    topN: z.number().int(),
    candidates: z.array(obj({ text: z.string(), model: z.string(), confidence: z.number() })),
  })
    .nullable()
    .describe(
      "The request as sent (top N, the candidates in order): a console re-ranks from it. Null for rankings stored before it was kept.",
    ),
});

export const Rankings = obj({
  rankings: z.array(
    obj({
      id: z.string(),
      rankedAt: epochMs,
      by: z.string(),
      candidateCount: z.number().int(),
      picks: z.array(
        obj({ id: nullableString, text: z.string(), model: z.string(), score: z.number().nullable(), novelty: z.number().nullable() }),
      ),
      filteredCount: z.number().int(),
      notPickedCount: z.number().int(),
    }),
  ),
});

export const Overridden = obj({
  override: Override,
  created: z.boolean().describe("false: this ranking's text was already used anyway; the first override is answered"),
  label: obj({
    a: z.string(),
    b: z.string(),
    label: z.literal("related"),
    createdBy: z.string().describe("override:<role>:<who>"),
  })
    .nullable()
    .describe(
      "The calibration label it stored; null when none was: no rankingId (the pair was not shown to be filtered), or a client key's override where an admin labelled the pair or the tenant holds 100 client-override labels",
    ),
});

export const showRankingDocs = {
  list: describe({
    tag: "Shows",
    summary: "Recent rankings of a show",
    description:
      "What `rank` answered for this show, newest first (the newest `limit`, 1..50, default 10; a show keeps its newest 100): when, by which key, what was picked. A producer's console lists what its AI ranked through the API.",
    responses: { 200: Rankings },
  }),
  read: describe({
    tag: "Shows",
    summary: "One stored ranking",
    description:
      "The ranking as `rank` answered it, with what happened since: `wasUsed` per pick, the `override` of each filtered candidate. `minutesAgo` is as it was when ranked; `askedAt` gives the clock time.",
    responses: { 200: Ranking },
    errors: { 404: "no such ranking in this show" },
  }),
  override: describe({
    tag: "Shows",
    summary: "Use a filtered question anyway",
    description:
      "Seed 004's manual override for one question: the host asks it although the show filtered it. It joins the show's memory marked used, and the override records who (the key's name) and when. With `rankingId`, the pair (this text, the question it was filtered against) is stored as a calibration label `related` (a near-topic, different question; `created_by` `override:<role>:<who>`): an admin key's replaces any label of the pair; a client key's is weak evidence, never replacing an admin's label, at most 100 per tenant, read by a fit after every admin label. With `rankingId`, the text must be one of that ranking's filtered candidates against `againstQuestionId`, and a second call answers the first override (200, `created: false`).",
    responses: { 201: Overridden, 200: Overridden },
    errors: {
      404: "no such question (againstQuestionId) or ranking (rankingId) in this show",
      409: "the show has ended",
      503: "the embedding model is unavailable; nothing was recorded",
    },
    requestExample: {
      text: "Can we prove AI systems are conscious?",
      model: "claude",
      againstQuestionId: "q_01b2",
      rankingId: "rk_2c9e",
    },
  }),
};
