/**
 * /v1/admin/webhook-secrets: the secrets ticket webhooks are signed with (src/features/tickets/secrets.ts).
 * POST creates a secret, shown once; POST /rotate makes a new one and keeps the previous ones
 * valid for `overlapHours` (default 24); DELETE /:id ends one now. The list never shows a secret.
 */
import { Hono } from "hono";
import { webhookAuthDb } from "../../features/tickets/select";
import { z } from "zod";
import {
  listWebhookSecrets,
  MAX_WEBHOOK_SECRET_OVERLAP_MS,
  revokeWebhookSecret,
  rotateWebhookSecret,
  WEBHOOK_SECRET_OVERLAP_MS,
} from "../../features/tickets/secrets";
import type { Services } from "../../platform/ports/services";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { requireAdmin } from "../middleware/require-admin";
import { adminPageQuery, afterCreated, createdAtPosition, toPage } from "../pagination";
import { validate } from "../validation";
import { idParam } from "../schemas/shared";
import { adminDocs } from "../docs/admin";

const HOUR = 3_600_000;
const rotateSchema = z.strictObject({
  overlapHours: z
    .number()
    .min(0)
    .max(MAX_WEBHOOK_SECRET_OVERLAP_MS / HOUR)
    .default(WEBHOOK_SECRET_OVERLAP_MS / HOUR),
});

/** Creating and rotating are one act: a new tenant-wide secret, the previous ones valid for `overlapHours`. */
async function newSecret(services: Services, tenantId: string, overlapHours: number) {
  const created = await rotateWebhookSecret(webhookAuthDb(services), await services.secretBox(), {
    tenantId,
    scope: null,
    now: services.clock.now(),
    overlapMs: overlapHours * HOUR,
  });
  return { ...created, tenantId };
}

export const webhookSecrets = new Hono<AppEnv>()
  .use(requireAdmin)
  .post("/", adminDocs.createSecret, validate("json", rotateSchema), async (c) =>
    c.json(await newSecret(c.get("services"), c.get("principal").tenantId, c.req.valid("json").overlapHours), 201),
  )
  .post("/rotate", adminDocs.rotateSecret, validate("json", rotateSchema), async (c) =>
    c.json(await newSecret(c.get("services"), c.get("principal").tenantId, c.req.valid("json").overlapHours), 201),
  )
  .get("/", adminDocs.listSecrets, validate("query", adminPageQuery), async (c) => {
    const { clock } = c.get("services");
    const db = webhookAuthDb(c.get("services"));
    const { limit, cursor } = c.req.valid("query");
    const secrets = await listWebhookSecrets(db, c.get("principal").tenantId, null, clock.now(), {
      limit: limit + 1,
      after: afterCreated("webhook-secrets", cursor),
    });
    const page = toPage("webhook-secrets", secrets, limit, createdAtPosition);
    return c.json({ secrets: page.rows, nextCursor: page.nextCursor });
  })
  .delete("/:id", adminDocs.revokeSecret, validate("param", idParam), async (c) => {
    const { clock } = c.get("services");
    const db = webhookAuthDb(c.get("services"));
    if (!(await revokeWebhookSecret(db, c.get("principal").tenantId, null, c.req.valid("param").id, clock.now())))
      throw new AppError("NOT_FOUND", "No such active secret");
    return c.body(null, 204);
  });
