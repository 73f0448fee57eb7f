/**
 * Moving a tenant to another database (docs/design/tenant-placement.md), one bounded step per call
 * (POST /v1/admin/tenants/:id/move; `npm run tenant:move` calls it until done). Resumable and
 * idempotent: every position is stored, and a copied batch and its position are one D1 batch.
 *
 *  freezing   the tenant's writes are refused (503, Retry-After) from the first call; the step
 *             waits out PRINCIPAL_CACHE_MS, so no isolate still writes from an older read of the
 *             key, and meanwhile clears the target of anything an earlier, abandoned move left.
 *  copying    table by table in rowid order, a batch at a time; a row keeps every column but its
 *             `seq` (the target numbers its own rows) and takes its full-text row along.
 *  verifying  both sides read again in the same order and compared row by row, full-text rows
 *             included. A difference fails the move: writes resume on the source, nothing switched.
 *  settling   the directory names the target; reads an isolate still sends to the source, from a
 *             key read before the switch, end within PRINCIPAL_CACHE_MS, after which
 *  deleting   the source's rows go, a batch at a time.
 *
 * Why a freeze and not a catch-up pass: see the design page. Derived rows (faq_row_versions,
 * vector_collections) are not copied: the target's triggers make them from the copied rows, with
 * new version epochs, so no cache keyed by the old ones is taken for current.
 */
import { HOME_DATABASE } from "../../platform/db/databases";
import { ConstraintViolation } from "../../platform/db/errors";
import { type MovePhase, WRITES_FROZEN_PHASES, WRITES_FROZEN_SQL } from "../../platform/db/schema/core";
import type { Services } from "../../platform/ports/services";
import { forgetTenantPrincipals, PRINCIPAL_CACHE_MS } from "../auth/keys";
import { forgetPlacement } from "./directory";
import { deleteSomeRows, insertStatements, MOVE_BATCH_ROWS, MOVED_TABLES, ownColumns, readPage, type Row } from "./moved-rows";

/** Work per call, so one call stays well inside a request's limits; the next call goes on. */
export const MOVE_STEP_BUDGET_MS = 5_000;

export interface MoveState {
  tenantId: string;
  from: string;
  to: string;
  phase: MovePhase;
  /** The table the phase is at (copying, verifying, deleting). */
  table: string | null;
  tablesDone: number;
  tables: number;
  /** Rows the phase has dealt with so far. */
  rows: number;
  /** While freezing or settling: how long the phase still waits. */
  waitMs: number;
  reason: string | null;
}

interface MoveRow {
  tenant_id: string;
  from_database: string;
  to_database: string;
  phase: MovePhase;
  phase_at: number;
  table_index: number;
  cursor: number;
  target_cursor: number;
  rows: number;
  reason: string | null;
  started_at: number;
}

type MoveServices = Pick<Services, "home" | "onDatabase" | "clock">;

export class MoveRefused extends Error {
  override name = "MoveRefused";
}

const readMove = (home: D1Database, tenantId: string) =>
  home.prepare("SELECT * FROM tenant_moves WHERE tenant_id = ?").bind(tenantId).first<MoveRow>();

/** The tenant's move as it stands (while copying, where the target's position says); null when it was never moved. */
export async function moveState(services: MoveServices, tenantId: string): Promise<MoveState | null> {
  const row = await readMove(services.home, tenantId);
  if (!row) return null;
  const position =
    row.phase === "copying"
      ? await services
          .onDatabase(row.to_database)
          .db.prepare("SELECT table_index, rows FROM tenant_copies WHERE tenant_id = ?")
          .bind(tenantId)
          .first<Pick<MoveRow, "table_index" | "rows">>()
      : null;
  return stateOf({ ...row, ...position }, services.clock.now());
}

/**
 * Starts the tenant's move to `to`, or goes on with the move under way, for about MOVE_STEP_BUDGET_MS. A move to the
 * database the tenant is in is refused; so is one to another target while a move is under way. A move that is done or
 * failed can be started again (to anywhere).
 */
export async function advanceMove(
  services: MoveServices,
  args: { tenantId: string; from: string; to: string },
  budgetMs = MOVE_STEP_BUDGET_MS,
): Promise<MoveState> {
  const current = await readMove(services.home, args.tenantId);
  const underWay = current && current.phase !== "done" && current.phase !== "failed" ? current : null;
  if (underWay && underWay.to_database !== args.to) {
    throw new MoveRefused(`The tenant is being moved to ${underWay.to_database}; finish that move first`);
  }
  if (!underWay && args.from === args.to) throw new MoveRefused(`The tenant is in ${args.to} already`);
  // At least one step, then more while the budget lasts and the phase has work.
  const until = Date.now() + budgetMs;
  for (let next = await step(services, underWay ?? (await start(services, args))); next && Date.now() < until;)
    next = await step(services, next);
  // Read back: a step that ended the move (failed) or stored its position in the target says so there.
  return (await moveState(services, args.tenantId))!;
}

async function start(services: MoveServices, { tenantId, from, to }: { tenantId: string; from: string; to: string }): Promise<MoveRow> {
  const now = services.clock.now();
  // The target's copy position goes first: its absence is what makes the freezing step clear the target.
  await services.onDatabase(to).db.prepare("DELETE FROM tenant_copies WHERE tenant_id = ?").bind(tenantId).run();
  await services.home
    .prepare(
      `INSERT INTO tenant_moves (tenant_id, from_database, to_database, phase, phase_at, started_at) VALUES (?1, ?2, ?3, 'freezing', ?4, ?4)
       ON CONFLICT (tenant_id) DO UPDATE SET from_database = ?2, to_database = ?3, phase = 'freezing', phase_at = ?4, started_at = ?4,
         table_index = 0, cursor = 0, target_cursor = 0, rows = 0, reason = NULL`,
    )
    .bind(tenantId, from, to, now)
    .run();
  // This isolate refuses the tenant's writes at once; others within PRINCIPAL_CACHE_MS, which freezing waits out.
  forgetTenantPrincipals(tenantId);
  forgetPlacement(tenantId);
  return (await readMove(services.home, tenantId))!;
}

/** One unit of work; the row after it, or null when the phase must wait (or the move has ended). */
async function step(services: MoveServices, row: MoveRow): Promise<MoveRow | null> {
  switch (row.phase) {
    case "freezing":
      return freezing(services, row);
    case "copying":
      return copying(services, row);
    case "verifying":
      return verifying(services, row);
    case "settling":
      return services.clock.now() - row.phase_at < PRINCIPAL_CACHE_MS ? null : enterPhase(services, row, "deleting");
    case "deleting":
      return deleting(services, row);
    case "done":
    case "failed":
      return null;
  }
}

async function freezing(services: MoveServices, row: MoveRow): Promise<MoveRow | null> {
  const target = services.onDatabase(row.to_database).db;
  const position = await target.prepare("SELECT 1 FROM tenant_copies WHERE tenant_id = ?").bind(row.tenant_id).first();
  if (!position) {
    if (!(await deleteSomeRows(target, row.tenant_id))) return row; // more to clear
    const tenant = await services.home.prepare("SELECT id, name, created_at FROM tenants WHERE id = ?").bind(row.tenant_id).first<Row>();
    if (!tenant) return fail(services, row, "The tenant no longer exists");
    await target.batch([
      target
        .prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING")
        .bind(tenant.id, tenant.name, tenant.created_at),
      target.prepare("INSERT INTO tenant_copies (tenant_id) VALUES (?)").bind(row.tenant_id),
    ]);
    return row;
  }
  if (services.clock.now() - row.phase_at < PRINCIPAL_CACHE_MS) return null;
  return enterPhase(services, row, "copying");
}

/** Copies one batch; the target's position row moves in the same D1 batch, so a batch is copied once whatever fails. */
async function copying(services: MoveServices, row: MoveRow): Promise<MoveRow | null> {
  const target = services.onDatabase(row.to_database).db;
  const position = await target
    .prepare("SELECT table_index, cursor, rows FROM tenant_copies WHERE tenant_id = ?")
    .bind(row.tenant_id)
    .first<MoveRow>();
  if (!position) return fail(services, row, "The target database lost the copy's position; start the move again");
  const table = MOVED_TABLES[position.table_index];
  if (!table) {
    await copyPartialFlags(services, row);
    await services.home.prepare("UPDATE tenant_moves SET rows = ? WHERE tenant_id = ?").bind(position.rows, row.tenant_id).run();
    return enterPhase(services, { ...row, rows: position.rows }, "verifying");
  }
  const source = services.onDatabase(row.from_database).db;
  const rows = await readPage(source, table, row.tenant_id, position.cursor);
  const statements = rows.flatMap((r) => insertStatements(target, table, r));
  const last = rows.at(-1);
  const [tableIndex, cursor] =
    rows.length < MOVE_BATCH_ROWS ? [position.table_index + 1, 0] : [position.table_index, Number(last!.__rowid)];
  statements.unshift(
    // Two calls copying at once (two operators) must not both copy this batch: when the position is no longer the one
    // read above, this insert meets the existing row's key, and the whole batch rolls back.
    target
      .prepare(
        "INSERT INTO tenant_copies (tenant_id) SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM tenant_copies WHERE tenant_id = ?1 AND table_index = ?2 AND cursor = ?3)",
      )
      .bind(row.tenant_id, position.table_index, position.cursor),
  );
  statements.push(
    target
      .prepare("UPDATE tenant_copies SET table_index = ?, cursor = ?, rows = rows + ? WHERE tenant_id = ?")
      .bind(tableIndex, cursor, rows.length, row.tenant_id),
  );
  try {
    await target.batch(statements);
  } catch (error) {
    if (!(error instanceof ConstraintViolation)) throw error;
    const now = await target
      .prepare("SELECT table_index, cursor FROM tenant_copies WHERE tenant_id = ?")
      .bind(row.tenant_id)
      .first<MoveRow>();
    // Another call copied the batch: go on from the stored position. Otherwise a copied row met one the target has.
    if (now && (now.table_index !== position.table_index || now.cursor !== position.cursor)) return row;
    return fail(services, row, `A row of ${table.name} is in the target already; start the move again`);
  }
  return { ...row, table_index: tableIndex, rows: position.rows + rows.length };
}

/**
 * A collection's `partial` flag (src/adapters/vectors/auto.ts) says where its vectors are read; the target's trigger
 * sets it by the order rows arrive in, so it is copied as the source has it.
 */
async function copyPartialFlags(services: MoveServices, row: MoveRow): Promise<void> {
  const { results } = await services
    .onDatabase(row.from_database)
    .db.prepare("SELECT collection, partial FROM vector_collections WHERE tenant_id = ?")
    .bind(row.tenant_id)
    .all<{ collection: string; partial: number }>();
  const target = services.onDatabase(row.to_database).db;
  const updates = results.map((c) =>
    target
      .prepare("UPDATE vector_collections SET partial = ? WHERE tenant_id = ? AND collection = ?")
      .bind(c.partial, row.tenant_id, c.collection),
  );
  if (updates.length > 0) await target.batch(updates);
}

/** Compares one page of a table on both sides; a difference fails the move. */
async function verifying(services: MoveServices, row: MoveRow): Promise<MoveRow | null> {
  const table = MOVED_TABLES[row.table_index];
  if (!table) return switchTo(services, row);
  const [sourceRows, targetRows] = await Promise.all([
    readPage(services.onDatabase(row.from_database).db, table, row.tenant_id, row.cursor),
    readPage(services.onDatabase(row.to_database).db, table, row.tenant_id, row.target_cursor),
  ]);
  const comparable = (r: Row) =>
    JSON.stringify(ownColumns(table, r).map((c) => r[c])) + JSON.stringify(table.fts?.columns.map((c) => r[`__fts_${c}`]));
  for (let i = 0; i < Math.max(sourceRows.length, targetRows.length); i++) {
    const [a, b] = [sourceRows[i], targetRows[i]];
    if (!a || !b || comparable(a) !== comparable(b)) {
      const what = !a ? "a row the source does not have" : !b ? "a row fewer" : "a row that differs";
      return fail(
        services,
        row,
        `Verification found ${what} in ${table.name} after the copy: the source changed while frozen; start the move again`,
      );
    }
  }
  const done = sourceRows.length < MOVE_BATCH_ROWS;
  const next = done
    ? { table_index: row.table_index + 1, cursor: 0, target_cursor: 0 }
    : { table_index: row.table_index, cursor: Number(sourceRows.at(-1)!.__rowid), target_cursor: Number(targetRows.at(-1)!.__rowid) };
  await services.home
    .prepare("UPDATE tenant_moves SET table_index = ?, cursor = ?, target_cursor = ? WHERE tenant_id = ?")
    .bind(next.table_index, next.cursor, next.target_cursor, row.tenant_id)
    .run();
  return { ...row, ...next };
}

/** The directory names the target and the freeze ends, in one batch. */
async function switchTo(services: MoveServices, row: MoveRow): Promise<MoveRow> {
  const { home, clock } = services;
  const now = clock.now();
  const directory =
    row.to_database === HOME_DATABASE
      ? home.prepare("DELETE FROM tenant_databases WHERE tenant_id = ?").bind(row.tenant_id)
      : home
          .prepare(
            `INSERT INTO tenant_databases (tenant_id, database, placed_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (tenant_id) DO UPDATE SET database = ?2, placed_at = ?3`,
          )
          .bind(row.tenant_id, row.to_database, now);
  await home.batch([directory, phaseStatement(home, row.tenant_id, "settling", now)]);
  forgetTenantPrincipals(row.tenant_id);
  forgetPlacement(row.tenant_id);
  return { ...row, phase: "settling", phase_at: now, table_index: 0, cursor: 0, target_cursor: 0 };
}

async function deleting(services: MoveServices, row: MoveRow): Promise<MoveRow | null> {
  const source = services.onDatabase(row.from_database).db;
  if (!(await deleteSomeRows(source, row.tenant_id))) return row;
  const statements = [services.onDatabase(row.to_database).db.prepare("DELETE FROM tenant_copies WHERE tenant_id = ?").bind(row.tenant_id)];
  // The home database keeps every tenant's row; a placed one only the rows of the tenants placed in it.
  if (row.from_database !== HOME_DATABASE) statements.push(source.prepare("DELETE FROM tenants WHERE id = ?").bind(row.tenant_id));
  await Promise.all(statements.map((s) => s.run()));
  return enterPhase(services, row, "done");
}

const phaseStatement = (home: D1Database, tenantId: string, phase: MovePhase, now: number, reason: string | null = null) =>
  home
    .prepare(
      "UPDATE tenant_moves SET phase = ?, phase_at = ?, table_index = 0, cursor = 0, target_cursor = 0, reason = ? WHERE tenant_id = ?",
    )
    .bind(phase, now, reason, tenantId);

async function enterPhase(services: MoveServices, row: MoveRow, phase: MovePhase, reason: string | null = null): Promise<MoveRow> {
  const now = services.clock.now();
  await phaseStatement(services.home, row.tenant_id, phase, now, reason).run();
  if (!WRITES_FROZEN_PHASES.includes(phase)) {
    forgetTenantPrincipals(row.tenant_id);
    forgetPlacement(row.tenant_id);
  }
  return { ...row, phase, phase_at: now, table_index: 0, cursor: 0, target_cursor: 0, reason };
}

/** A failed move lifts the freeze and leaves the tenant where it was; what it copied is cleared when a move starts again. */
async function fail(services: MoveServices, row: MoveRow, reason: string): Promise<null> {
  await enterPhase(services, row, "failed", reason);
  return null;
}

function stateOf(row: MoveRow, now: number): MoveState {
  const waits = row.phase === "freezing" || row.phase === "settling";
  const inTables = row.phase === "copying" || row.phase === "verifying" || row.phase === "deleting";
  return {
    tenantId: row.tenant_id,
    from: row.from_database,
    to: row.to_database,
    phase: row.phase,
    table: inTables ? (MOVED_TABLES[row.table_index]?.name ?? null) : null,
    tablesDone: inTables ? Math.min(row.table_index, MOVED_TABLES.length) : row.phase === "done" ? MOVED_TABLES.length : 0,
    tables: MOVED_TABLES.length,
    rows: row.rows,
    waitMs: waits ? Math.max(0, row.phase_at + PRINCIPAL_CACHE_MS - now) : 0,
    reason: row.reason,
  };
}

/**
 * The databases a move is copying between (its writes frozen): the cron's per-database jobs wait for the move to end, since
 * a job going row by row (re-index, pruning) would change rows being copied and fail the move's verification.
 */
export async function databasesInMoves(home: D1Database): Promise<Set<string>> {
  const { results } = await home
    .prepare(`SELECT from_database, to_database FROM tenant_moves WHERE ${WRITES_FROZEN_SQL}`)
    .all<{ from_database: string; to_database: string }>();
  return new Set(results.flatMap((r) => [r.from_database, r.to_database]));
}
