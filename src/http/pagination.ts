/**
 * One cursor convention for the lists that had none: `?limit=&cursor=` in, `nextCursor` out.
 * A cursor is opaque to clients (base64url of the last row's position in the list's order, a
 * JSON array of strings and numbers); `nextCursor` is null on the last page. Each list fetches
 * `limit + 1` rows, so it knows whether another page follows without counting.
 */
import { z } from "zod";
import { AppError } from "./errors";

export type Position = readonly (string | number)[];

const BASE64URL = /^[A-Za-z0-9_-]{1,400}$/;

export function encodeCursor(position: Position): string {
  const bytes = new TextEncoder().encode(JSON.stringify(position));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The position a cursor of this API encodes, checked against the list's own shape; else a 400. */
export function decodeCursor<T extends Position>(cursor: string, shape: z.ZodType<T>): T {
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const json: unknown = JSON.parse(
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))),
    );
    const parsed = shape.safeParse(json);
    if (parsed.success) return parsed.data;
  } catch {
    // falls through to the one answer for every bad cursor
  }
  throw new AppError("VALIDATION_FAILED", "Invalid query: cursor", [{ path: "cursor", message: "not a cursor this list gave" }]);
}

/** `?cursor=`: the previous page's `nextCursor`. */
export const cursorParam = z
  .string()
  .regex(BASE64URL, "not a cursor this list gave")
  .optional()
  .describe("The previous page's `nextCursor`; omit for the first page");

/** `?limit=&cursor=`, shared by every paginated list: `limit` 1..max, default `defaultLimit`. */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return z.strictObject({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit).describe(`Page size, 1..${maxLimit}`),
    cursor: cursorParam,
  });
}

/** The position of lists ordered by a row's `seq` alone. */
export const seqPosition = z.tuple([z.number().int().min(0)]);

/** The `seq` a query's cursor names (undefined on the first page). */
export const afterSeq = (cursor: string | undefined) => (cursor === undefined ? undefined : decodeCursor(cursor, seqPosition)[0]);

/** The cursor of a seq-ordered list whose store says where the next page starts (null: none). */
export const seqCursor = (seq: number | null) => (seq === null ? null : encodeCursor([seq]));

/** The position of lists ordered by creation time and id. */
export const timeAndIdPosition = z.tuple([z.number().int(), z.string().max(100)]);

/** The (created_at ms, id) position of a row shown with an ISO `createdAt`. */
export const createdAtPosition = (row: { createdAt: string; id: string }): Position => [Date.parse(row.createdAt), row.id];

/** The `after` position a query's cursor names (undefined on the first page). */
export const afterCreated = (cursor: string | undefined) => (cursor === undefined ? undefined : decodeCursor(cursor, timeAndIdPosition));

/** Admin lists (keys, webhook secrets, helpdesk connections): 50 per page, at most 200. */
export const adminPageQuery = pageQuery(50, 200);

/** The documented `nextCursor` of a page. */
export const nextCursorSchema = z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page");

/** Cuts `limit + 1` fetched rows to one page and the cursor of the next. */
export function toPage<R>(rows: readonly R[], limit: number, positionOf: (row: R) => Position): { rows: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(positionOf(last)) : null };
}
