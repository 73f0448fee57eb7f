/**
 * /v1/admin/helpdesk-connections (admin key): the tenant's helpdesk webhooks (issue 17).
 *   POST /            { provider, name?, secret? } → 201 with `webhookPath` and, when Recall generated
 *                     it (Standard Webhooks, Help Scout, Freshdesk), the secret — shown this once.
 *                     Zendesk, Intercom and Front supply their own: pass it as `secret`, now or later
 *                     through /rotate (until then the connection is `awaiting_secret`).
 *   GET  /            every connection with its secrets' ids and dates, never a secret.
 *   POST /:id/rotate  { secret?, overlapHours = 24 } → a new secret; the previous ones keep verifying
 *                     for the overlap (0 ends them now).
 *   DELETE /:id       revokes the connection and all its secrets.
 *   GET  /:id/deliveries  the latest deliveries with their outcome and skip reason.
 */
import { Hono } from "hono";
import { webhookAuthDb } from "../../features/tickets/select";
import { z } from "zod";
import { helpdeskProviders } from "../../platform/db/schema/helpdesk";
import {
  createConnection,
  getTenantConnection,
  listConnections,
  revokeConnection,
  rotateConnectionSecret,
  secretProblem,
} from "../../features/helpdesk/connections";
import { listDeliveries, toDelivery } from "../../features/helpdesk/deliveries";
import { MAX_WEBHOOK_SECRET_OVERLAP_MS, WEBHOOK_SECRET_OVERLAP_MS } from "../../features/tickets/secrets";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { requireAdmin } from "../middleware/require-admin";
import { adminPageQuery, afterCreated, createdAtPosition, decodeCursor, toPage } from "../pagination";
import { validate, visibleText } from "../validation";
import { idParam } from "../schemas/shared";
import { helpdeskDocs } from "../docs/helpdesks";

const HOUR = 3_600_000;
const secretField = visibleText(512).optional();
const createSchema = z.strictObject({
  provider: z.enum(helpdeskProviders),
  name: visibleText(200).optional(),
  secret: secretField,
});
const rotateSchema = z.strictObject({
  secret: secretField,
  overlapHours: z
    .number()
    .min(0)
    .max(MAX_WEBHOOK_SECRET_OVERLAP_MS / HOUR)
    .default(WEBHOOK_SECRET_OVERLAP_MS / HOUR),
});
const deliveriesQuery = adminPageQuery;
const deliveryPosition = z.tuple([z.number().int(), z.string().max(300)]);

function checkSecret(provider: (typeof helpdeskProviders)[number], secret: string | undefined): void {
  const problem = secret === undefined ? null : secretProblem(provider, secret);
  if (problem) throw new AppError("VALIDATION_FAILED", problem, [{ path: "secret", message: problem }]);
}

export const helpdeskConnections = new Hono<AppEnv>()
  .use(requireAdmin)
  .post("/", helpdeskDocs.createConnection, validate("json", createSchema), async (c) => {
    const { clock, secretBox } = c.get("services");
    const db = webhookAuthDb(c.get("services"));
    const { provider, name, secret } = c.req.valid("json");
    checkSecret(provider, secret);
    const created = await createConnection(db, await secretBox(), {
      tenantId: c.get("principal").tenantId,
      provider,
      name: name ?? provider,
      secret,
      now: clock.now(),
    });
    return c.json(created, 201);
  })
  .get("/", helpdeskDocs.listConnections, validate("query", adminPageQuery), async (c) => {
    const { clock } = c.get("services");
    const db = webhookAuthDb(c.get("services"));
    const { limit, cursor } = c.req.valid("query");
    const connections = await listConnections(db, c.get("principal").tenantId, clock.now(), {
      limit: limit + 1,
      after: afterCreated("helpdesk-connections", cursor),
    });
    const page = toPage("helpdesk-connections", connections, limit, createdAtPosition);
    return c.json({ connections: page.rows, nextCursor: page.nextCursor });
  })
  .post("/:id/rotate", helpdeskDocs.rotateConnectionSecret, validate("param", idParam), validate("json", rotateSchema), async (c) => {
    const { clock, secretBox } = c.get("services");
    const db = webhookAuthDb(c.get("services"));
    const row = await getTenantConnection(db, c.get("principal").tenantId, c.req.valid("param").id);
    if (!row || row.revokedAt !== null) throw new AppError("NOT_FOUND", "No such active helpdesk connection");
    const { secret, overlapHours } = c.req.valid("json");
    checkSecret(row.provider, secret);
    const rotated = await rotateConnectionSecret(db, await secretBox(), row, { secret, overlapMs: overlapHours * HOUR, now: clock.now() });
    if (!rotated)
      throw new AppError("VALIDATION_FAILED", `${row.provider} supplies its own secret: send it as "secret"`, [
        { path: "secret", message: "required" },
      ]);
    return c.json(rotated, 201);
  })
  .delete("/:id", helpdeskDocs.revokeConnection, validate("param", idParam), async (c) => {
    const { clock } = c.get("services");
    const db = webhookAuthDb(c.get("services"));
    if (!(await revokeConnection(db, c.get("principal").tenantId, c.req.valid("param").id, clock.now())))
      throw new AppError("NOT_FOUND", "No such active helpdesk connection");
    return c.body(null, 204);
  })
  .get("/:id/deliveries", helpdeskDocs.connectionDeliveries, validate("param", idParam), validate("query", deliveriesQuery), async (c) => {
    const db = webhookAuthDb(c.get("services"));
    const tenantId = c.get("principal").tenantId;
    const row = await getTenantConnection(db, tenantId, c.req.valid("param").id);
    if (!row) throw new AppError("NOT_FOUND", "No such helpdesk connection");
    const { limit, cursor } = c.req.valid("query");
    const after = cursor === undefined ? undefined : decodeCursor("helpdesk-deliveries", cursor, deliveryPosition);
    const page = toPage("helpdesk-deliveries", await listDeliveries(db, tenantId, row.id, { limit: limit + 1, after }), limit, (d) => [
      d.receivedAt,
      d.deliveryKey,
    ]);
    return c.json({ deliveries: page.rows.map(toDelivery), nextCursor: page.nextCursor });
  });
