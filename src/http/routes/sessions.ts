import { Hono } from "hono";
import { z } from "zod";
import { MAX_FILES_PER_CALL, recordFileMentions } from "../../features/sessions/files";
import type { AppEnv } from "../context";
import { idempotent } from "../idempotency";
import { validate } from "../validation";
import { memoryDocs } from "../docs/memories";

const sessionParam = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[^\p{Cc}\s]+$/u, "must be printable, without spaces"),
});
const filesSchema = z.strictObject({
  files: z
    .array(
      z.strictObject({
        path: z
          .string()
          .trim()
          .min(1)
          .max(1024)
          .regex(/^[^\p{Cc}]+$/u, "must not contain control characters")
          // Documented as the input may be: trimmed first, so surrounding white space is fine.
          .meta({ pattern: "^\\s*[^\\p{Cc}]+\\s*$" }),
        lineIndex: z.number().int().min(0).optional(),
      }),
    )
    .min(1)
    .max(MAX_FILES_PER_CALL),
});

/** POST /v1/sessions/:sessionId/files: records the files a session touched (for query enrichment). */
export const sessions = new Hono<AppEnv>().post(
  "/:sessionId/files",
  memoryDocs.sessionFiles,
  validate("param", sessionParam),
  validate("json", filesSchema),
  idempotent,
  async (c) => {
    const { db, clock } = c.get("services");
    const recorded = await recordFileMentions(
      db,
      c.get("principal").tenantId,
      c.req.valid("param").sessionId,
      c.req.valid("json").files,
      clock.now(),
    );
    return c.json({ recorded }, 201);
  },
);
