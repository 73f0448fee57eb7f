import { Hono } from "hono";
import { z } from "zod";
import { createApiKey, DEV_KEY_ID, DEV_TENANT_ID, listApiKeys, revokeApiKey, roles } from "../../features/auth/keys";
import { backfillCards, MAX_BACKFILL_BATCH } from "../../features/cards/backfill";
import { FTS_COLLECTIONS, MAX_FTS_REBUILD_BATCH, rebuildFts } from "../../features/indexing/fts-rebuild";
import { reembedTenant } from "../../features/upkeep/reembed";
import { faqStore } from "../../features/faqs/select";
import { readRecallMetrics } from "../../platform/observe/counters";
import { readTenantSettings, tenantSettingsPatchSchema, updateTenantSettings } from "../../features/settings/tenant";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { requireAdmin } from "../middleware/require-admin";
import { adminPageQuery, afterCreated, createdAtPosition, toPage } from "../pagination";
import { validate } from "../validation";
import { idParam } from "../schemas/shared";
import { adminDocs } from "../docs/admin";

const backfillSchema = z.strictObject({
  after: z.number().int().min(0).default(0),
  batchSize: z.number().int().min(1).max(MAX_BACKFILL_BATCH).default(200),
});

const ftsRebuildSchema = z.strictObject({
  collection: z.enum(FTS_COLLECTIONS),
  after: z.number().int().min(0).default(0),
  batchSize: z.number().int().min(1).max(MAX_FTS_REBUILD_BATCH).default(200),
});

const newKeySchema = z.strictObject({
  role: z.enum(roles).default("client"),
  name: z.string().trim().max(100).default(""),
});

/** Admin routes act on the admin key's own tenant only. */
export const admin = new Hono<AppEnv>()
  .use(requireAdmin)
  .post("/keys", adminDocs.createKey, validate("json", newKeySchema), async (c) => {
    const { home, clock } = c.get("services");
    const created = await createApiKey(home, { tenantId: c.get("principal").tenantId, ...c.req.valid("json"), now: clock.now() });
    // The key is returned this once; only its hash is stored.
    return c.json({ ...created, createdAt: new Date(created.createdAt).toISOString() }, 201);
  })
  .get("/keys", adminDocs.listKeys, validate("query", adminPageQuery), async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const keys = await listApiKeys(c.get("services").home, c.get("principal").tenantId, {
      limit: limit + 1,
      after: afterCreated("api-keys", cursor),
    });
    const page = toPage("api-keys", keys, limit, createdAtPosition);
    return c.json({ keys: page.rows, nextCursor: page.nextCursor });
  })
  .delete("/keys/:id", adminDocs.revokeKey, validate("param", idParam), async (c) => {
    const { home, clock } = c.get("services");
    const { tenantId } = c.get("principal");
    if (tenantId === DEV_TENANT_ID && c.req.valid("param").id === DEV_KEY_ID) {
      throw new AppError(
        "DEV_KEY_PERMANENT",
        "The local dev key comes from RECALL_DEV_API_KEY and is recreated on its next use, so it cannot be revoked; change or unset RECALL_DEV_API_KEY instead",
      );
    }
    const revoked = await revokeApiKey(home, tenantId, c.req.valid("param").id, clock.now());
    if (!revoked) throw new AppError("NOT_FOUND", "No such active key");
    return c.body(null, 204);
  })
  .post("/cards/backfill", adminDocs.backfill, validate("json", backfillSchema), async (c) => {
    const { after, batchSize } = c.req.valid("json");
    return c.json(await backfillCards(c.get("services").db, c.get("principal").tenantId, after, batchSize));
  })
  .post("/fts/rebuild", adminDocs.ftsRebuild, validate("json", ftsRebuildSchema), async (c) => {
    const { collection, after, batchSize } = c.req.valid("json");
    const services = c.get("services");
    const tenantId = c.get("principal").tenantId;
    // Memories live in D1; FAQs and variants wherever the FAQ store keeps them (D1 or Postgres).
    return c.json(
      collection === "memories"
        ? await rebuildFts(services.db, tenantId, collection, after, batchSize)
        : await faqStore(services).rebuildFullText(tenantId, collection, after, batchSize),
    );
  })
  .get("/settings", adminDocs.readSettings, async (c) =>
    c.json(await readTenantSettings(c.get("services").db, c.get("principal").tenantId)),
  )
  .patch("/settings", adminDocs.updateSettings, validate("json", tenantSettingsPatchSchema), async (c) => {
    const { db, clock } = c.get("services");
    return c.json(await updateTenantSettings(db, c.get("principal").tenantId, c.req.valid("json"), clock.now()));
  })
  .get("/metrics", adminDocs.metrics, async (c) => {
    const { db, clock } = c.get("services");
    return c.json({ recall: await readRecallMetrics(db, c.get("principal").tenantId, clock.now()) });
  })
  .post("/reembed", adminDocs.reembed, async (c) => {
    // After EMBEDDING_MODEL changed: the rows go back to the outbox; the cron re-indexes them.
    return c.json(await reembedTenant(c.get("services"), c.get("principal").tenantId), 202);
  });
