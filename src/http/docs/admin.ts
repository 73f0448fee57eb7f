import { describe } from "../openapi/describe";
import { z } from "zod";
import { nextCursorSchema } from "../pagination";
import { roles } from "../../features/auth/keys";
import { ScaleStatusSchema } from "./calibration";
import { isoTime, obj } from "./common";
import { FTS_COLLECTIONS } from "../../features/indexing/fts-rebuild";
import { tenantSettingsSchema } from "../../features/settings/tenant";

export const CreatedKey = obj({
  id: z.string(),
  key: z.string().describe("The API key, shown this once: only its SHA-256 is stored"),
  keyPrefix: z.string(),
  tenantId: z.string(),
  role: z.enum(roles),
  name: z.string(),
  createdAt: isoTime,
});

export const Keys = obj({
  keys: z.array(
    obj({
      id: z.string(),
      keyPrefix: z.string(),
      role: z.enum(roles),
      name: z.string(),
      createdAt: isoTime,
      revokedAt: isoTime.nullable(),
    }),
  ),
  nextCursor: nextCursorSchema,
});

export const BackfillPage = obj({
  processed: z.number().int(),
  cardsCreated: z.number().int(),
  nextCursor: z.number().int().nullable().describe("Pass back as `after` for the next page; null when every memory has been read"),
});

export const Metrics = obj({
  recall: obj({
    days: z.number().int(),
    prompts: z.number().int(),
    trivialPrompts: z.number().int().describe("Prompts answered at once as trivial: counted in `prompts`, never questions"),
    questionDetectionRate: z.number().nullable(),
    similarQuestionHitRate: z.number().nullable(),
    meanSimilarity: z.number().nullable(),
    contextLatencyMs: obj({ p50: z.number().nullable(), p95: z.number().nullable(), samples: z.number().int() }),
  }),
});

export const FtsRebuildPage = obj({
  collection: z.enum(FTS_COLLECTIONS),
  processed: z.number().int().describe("Rows read in this page"),
  rewritten: z.number().int().describe("Rows whose full-text row was re-tokenized (0 when it was already current)"),
  nextCursor: z.number().int().nullable().describe("Pass back as `after` for the next page; null when every row has been read"),
});

export const TenantSettings = obj({
  settings: tenantSettingsSchema,
  updatedAt: isoTime.nullable().describe("When an admin last changed them; null while the tenant uses the defaults"),
}).meta({ id: "TenantSettings" });

export const Reembed = obj({ model: z.string(), marked: z.record(z.string(), z.number().int()) });

const SecretInfo = {
  id: z.string(),
  prefix: z.string().describe("A hint of the secret: `whsec_` and 6 characters"),
  createdAt: isoTime,
  expiresAt: isoTime.nullable().describe("null: valid until rotated or revoked"),
  active: z.boolean(),
};
export const CreatedSecret = obj({
  ...SecretInfo,
  secret: z.string().describe("The signing secret, shown this once"),
  previousValidUntil: isoTime.nullable(),
  tenantId: z.string().describe("Send it as X-Recall-Tenant"),
});
export const Secrets = obj({ secrets: z.array(obj(SecretInfo)), nextCursor: nextCursorSchema });

const SkipState = z.enum(["ok", "skipped"]);

export const Health = obj({
  status: z
    .enum(["ok", "degraded"])
    .describe(
      "degraded: a part (the embedding model, Vectorize, KV, the judge model) missed a deadline in this isolate and is skipped for a while; requests go on without it and say so",
    ),
  service: z.literal("recall"),
  adapters: obj({
    embedder: obj({
      kind: z.string(),
      model: z.string(),
      dimensions: z.number().int(),
      languages: z.array(z.string()),
      state: SkipState.describe("skipped: it missed a deadline in this isolate; calls are skipped for up to 15 s"),
      calibration: ScaleStatusSchema.describe(
        "The deployment's scale in force: its own fit, else the table shipped for the model, else raw cosine",
      ),
    }),
    vectorIndex: obj({
      kind: z.string(),
      state: SkipState.describe("skipped: Vectorize missed a deadline in this isolate; searches go on by keywords for up to 15 s"),
      routing: obj({
        rule: z.string(),
        exactMax: z.number().int(),
        configuredExactMax: z.number().int(),
        small: z.string(),
        large: z.string(),
      })
        .optional()
        .describe(
          "VECTOR_INDEX=auto: a collection (tenant + kind) of at most `exactMax` vectors is read from the `small` index, a larger one from the `large` one",
        ),
    }),
    judge: obj({
      kind: z.string(),
      state: SkipState.describe("skipped: the judge model missed a deadline; the heuristic judge decides meanwhile"),
    }),
    cache: obj({ state: SkipState.describe("skipped: KV missed a deadline; caches are bypassed for up to 15 s") }),
  }),
});

export const adminDocs = {
  health: describe({
    tag: "Health",
    public: true,
    summary: "Health and active adapters",
    description: "Public. The active embedder (model, dimensions, languages, calibration), vector index and judge; never a secret.",
    responses: { 200: Health },
  }),
  createKey: describe({
    tag: "Admin",
    summary: "Create an API key",
    description: "A new key of the admin's tenant. The key is in this answer only: just its SHA-256 is stored.",
    responses: { 201: CreatedKey },
    requestExample: { role: "client", name: "support bot" },
  }),
  listKeys: describe({
    tag: "Admin",
    summary: "List API keys",
    description:
      "The tenant's keys, oldest first, revoked ones included; never a secret. `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`.",
    responses: { 200: Keys },
  }),
  revokeKey: describe({
    tag: "Admin",
    summary: "Revoke an API key",
    description:
      "The key stops working at once. The local dev key (`key_dev`, from RECALL_DEV_API_KEY, never set in production) cannot be revoked: 409 `DEV_KEY_PERMANENT`.",
    responses: { 204: null },
    errors: {
      404: "no such active key",
      409: "DEV_KEY_PERMANENT: the local dev key is recreated on its next use; change or unset RECALL_DEV_API_KEY instead",
    },
  }),
  backfill: describe({
    tag: "Admin",
    summary: "Backfill memory cards",
    description:
      "Extracts cards for memories stored without them, oldest first, one page; pass `nextCursor` back as `after`. Safe to repeat.",
    responses: { 200: BackfillPage },
  }),
  ftsRebuild: describe({
    tag: "Admin",
    summary: "Rebuild the full-text index",
    description:
      "Re-tokenizes one collection's full-text rows with the current segmentation, one page, oldest first; pass `nextCursor` back as `after`. Needed once after the segmentation changes; only rows whose text differs are written, so it is safe to repeat.",
    responses: { 200: FtsRebuildPage },
    requestExample: { collection: "memories", after: 0, batchSize: 200 },
  }),
  readSettings: describe({
    tag: "Settings",
    summary: "Read the tenant's settings",
    description:
      "The switches for memory cards (enabled, confidence threshold, extract on store) and query understanding (question-type detection, keyword expansion), the defaults merged with what an admin set.",
    responses: { 200: TenantSettings },
  }),
  updateSettings: describe({
    tag: "Settings",
    summary: "Change the tenant's settings",
    description:
      "Any subset of the switches; the others keep their value. Unknown switches are refused. Applies to the next memory write and search.",
    responses: { 200: TenantSettings },
    requestExample: { cards: { confidenceThreshold: 0.8 }, query: { expansion: false } },
  }),
  metrics: describe({
    tag: "Admin",
    summary: "Recall metrics",
    description: "Last 7 days: question detection rate, similar-question hit rate, mean similarity, context latency p50/p95.",
    responses: { 200: Metrics },
  }),
  reembed: describe({
    tag: "Admin",
    summary: "Re-embed after a model change",
    description:
      "Rows embedded by another model than the active one go back to the outbox and their vectors are dropped; the re-index cron embeds them. Safe to repeat.",
    responses: { 202: Reembed },
  }),
  createSecret: describe({
    tag: "Admin",
    summary: "Create a webhook secret",
    description:
      "A new signing secret for POST /v1/webhooks/tickets, shown this once with the tenant id; every secret still valid ends `overlapHours` from now.",
    responses: { 201: CreatedSecret },
  }),
  rotateSecret: describe({
    tag: "Admin",
    summary: "Rotate the webhook secret",
    description:
      "Same as creating one: the previous secrets stay valid for `overlapHours` (default 24, at most 168) so senders switch without a failed delivery.",
    responses: { 201: CreatedSecret },
    requestExample: { overlapHours: 24 },
  }),
  listSecrets: describe({
    tag: "Admin",
    summary: "List webhook secrets",
    description:
      "Prefix, created, expires, active; never the secret. Newest first; `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`. Ended secrets are deleted by the 5-minute cron.",
    responses: { 200: Secrets },
  }),
  revokeSecret: describe({
    tag: "Admin",
    summary: "End a webhook secret now",
    description: "For a leaked secret.",
    responses: { 204: null },
    errors: { 404: "no such active secret" },
  }),
};
