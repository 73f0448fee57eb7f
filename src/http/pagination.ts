/**
 * One cursor convention for the lists that had none: `?limit=&cursor=` in, `nextCursor` out.
 * A cursor is opaque to clients: a JSON array (the name of the list that gave it, then the last
 * row's position in the list's order, strings and numbers) sealed with the deployment's key
 * (sealed.ts), since a position such as a row's seq counts the rows of every tenant. `nextCursor`
 * is null on the last page. A list refuses a cursor that names another list, even when the position would fit
 * (many lists page by a row's seq, or by created time and id). Each list fetches `limit + 1` rows,
 * so it knows whether another page follows without counting.
 */
import { z } from "zod";
import { seal, unseal } from "./sealed";
import { validationFailed } from "./validation";

export type Position = readonly (string | number)[];

/** Every list that pages with a cursor: the name its cursors carry. */
export type CursorList =
  | "faqs"
  | "faq-variants"
  | "faq-versions"
  | "tickets"
  | "staging"
  | "cards"
  | "shows"
  | "show-history"
  | "api-keys"
  | "webhook-secrets"
  | "helpdesk-connections"
  | "helpdesk-deliveries";

/** The longest position (a helpdesk delivery's 300-character key, 3 bytes a character at most) with its list's name fits, sealed (+40 bytes). */
const BASE64URL = /^[A-Za-z0-9_-]{1,1400}$/;

export function encodeCursor(list: CursorList, position: Position): string {
  return seal(JSON.stringify([list, ...position]));
}

/** The position a cursor of `list` encodes, checked against the list's own shape; else a 400. */
export function decodeCursor<T extends Position>(list: CursorList, cursor: string, shape: z.ZodType<T>): T {
  const text = unseal(cursor);
  try {
    const json: unknown = text === null ? null : JSON.parse(text);
    const parsed = Array.isArray(json) && json[0] === list ? shape.safeParse(json.slice(1)) : undefined;
    if (parsed?.success) return parsed.data;
  } catch {
    // falls through to the one answer for every bad cursor
  }
  throw validationFailed([{ path: "cursor", message: "not a cursor this list gave" }], "query");
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
export const afterSeq = (list: CursorList, cursor: string | undefined) =>
  cursor === undefined ? undefined : decodeCursor(list, cursor, seqPosition)[0];

/** The cursor of a seq-ordered list whose store says where the next page starts (null: none). */
export const seqCursor = (list: CursorList, seq: number | null) => (seq === null ? null : encodeCursor(list, [seq]));

/** The position of lists ordered by creation time and id. */
export const timeAndIdPosition = z.tuple([z.number().int(), z.string().max(100)]);

/** The (created_at ms, id) position of a row shown with an ISO `createdAt`. */
export const createdAtPosition = (row: { createdAt: string; id: string }): Position => [Date.parse(row.createdAt), row.id];

/** The `after` position a query's cursor names (undefined on the first page). */
export const afterCreated = (list: CursorList, cursor: string | undefined) =>
  cursor === undefined ? undefined : decodeCursor(list, cursor, timeAndIdPosition);

/** Admin lists (keys, webhook secrets, helpdesk connections): 50 per page, at most 200. */
export const adminPageQuery = pageQuery(50, 200);

/** The documented `nextCursor` of a page. */
export const nextCursorSchema = z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page");

/** Cuts `limit + 1` fetched rows to one page and the cursor of the next. */
export function toPage<R>(
  list: CursorList,
  rows: readonly R[],
  limit: number,
  positionOf: (row: R) => Position,
): { rows: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(list, positionOf(last)) : null };
}
