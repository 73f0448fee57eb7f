import { Hono } from "hono";
import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey, roles } from "../../auth/keys";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { requireAdmin } from "../middleware";
import { validate } from "../validation";
import { idParam } from "./shared";

const newKeySchema = z.strictObject({
  role: z.enum(roles).default("client"),
  name: z.string().trim().max(100).default(""),
});

/** Admin routes act on the admin key's own tenant only. */
export const admin = new Hono<AppEnv>()
  .use(requireAdmin)
  .post("/keys", validate("json", newKeySchema), async (c) => {
    const { db, clock } = c.get("services");
    const created = await createApiKey(db, { tenantId: c.get("principal").tenantId, ...c.req.valid("json"), now: clock.now() });
    // The key is returned this once; only its hash is stored.
    return c.json({ ...created, createdAt: new Date(created.createdAt).toISOString() }, 201);
  })
  .get("/keys", async (c) => {
    return c.json({ keys: await listApiKeys(c.get("services").db, c.get("principal").tenantId) });
  })
  .delete("/keys/:id", validate("param", idParam), async (c) => {
    const { db, clock } = c.get("services");
    const revoked = await revokeApiKey(db, c.get("principal").tenantId, c.req.valid("param").id, clock.now());
    if (!revoked) throw new AppError("NOT_FOUND", "No such active key");
    return c.body(null, 204);
  });
