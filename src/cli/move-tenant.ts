/**
 * `recall move-tenant <tenant id> --to <database>`: moves a tenant to another D1 database (an admin
 * key of the operator's tenant). Calls POST /v1/admin/tenants/:id/move until the move is done or
 * failed, waiting out its freezing and settling phases, with a progress line; a call cut off is
 * simply made again (the move is resumable). docs/guides/scaling.md#moving-a-tenant.
 */
import { parseArgs } from "node:util";
import type { RecallConfig } from "./config";
import { callApi } from "./post";

const CALL_TIMEOUT_MS = 60_000;
const MAX_CALLS = 100_000;

interface MoveState {
  phase: string;
  table: string | null;
  tablesDone: number;
  tables: number;
  rows: number;
  waitMs: number;
  reason: string | null;
  from: string;
  to: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function progress(state: MoveState): string {
  if (state.waitMs > 0) {
    const why = state.phase === "freezing" ? "writes held while the key cache expires" : "switched; reads leave the old database";
    return `${state.phase}: ${why}, ${Math.ceil(state.waitMs / 1000)} s`;
  }
  const table = state.table ? ` ${state.table}` : "";
  return `${state.phase}${table}: ${state.tablesDone}/${state.tables} tables, ${state.rows} rows copied`;
}

export async function moveTenant(args: string[], config: RecallConfig): Promise<boolean> {
  const { values, positionals } = parseArgs({ args, options: { to: { type: "string" } }, allowPositionals: true });
  const [tenantId] = positionals;
  if (!tenantId || !values.to) throw new Error("usage: recall move-tenant <tenant id> --to <database: DB, DB_1, …>");
  const path = `/v1/admin/tenants/${encodeURIComponent(tenantId)}/move`;
  let state: MoveState | null = null;
  for (let n = 0; n < MAX_CALLS; n++) {
    state = (await callApi(config, path, { to: values.to }, CALL_TIMEOUT_MS)) as unknown as MoveState;
    if (process.stderr.isTTY) process.stderr.write(`\r${progress(state).padEnd(80)}`);
    if (state.phase === "done" || state.phase === "failed") break;
    if (state.waitMs > 0) await sleep(Math.min(state.waitMs, 5_000));
  }
  if (process.stderr.isTTY) process.stderr.write("\n");
  if (state?.phase === "failed") {
    console.log(`failed: ${state.reason}`);
    return false;
  }
  if (state?.phase !== "done")
    throw new Error(`the move is still ${state?.phase} after ${MAX_CALLS} calls; run the command again to go on`);
  console.log(`moved ${tenantId} from ${state.from} to ${state.to}: ${state.rows} rows copied and verified`);
  return true;
}
