import type { MiddlewareHandler } from "hono";
import { scaleAlongsideKey } from "../../features/calibration/in-force";
import { ensureDevKey, findPrincipal, type Principal } from "../../features/auth/keys";
import type { Services } from "../../platform/ports/services";
import { rootLogger } from "../../platform/observe/log";
import type { AppEnv } from "../context";
import { bindTenant } from "../access-log";
import { AppError } from "../errors";
import { loadSealingKey } from "../sealed";

const BEARER = /^Bearer\s+(\S{1,256})\s*$/i;

/** Bearer API key → principal (tenant, role). Local mode also knows the dev key (RECALL_DEV_API_KEY). */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const match = BEARER.exec(c.req.header("authorization") ?? "");
    if (!match) throw new AppError("UNAUTHORIZED", "Send an API key as 'Authorization: Bearer <key>'");
    // The sealing key (cursors: sealed.ts), read once per isolate, lands beside the key's lookup: no round trip of its own.
    const keyRead = c.get("sealingKeyRead") ?? loadSealingKey(c.env.DB);
    const [principal] = await Promise.all([principalForKey(c.get("services"), c.env, match[1]!), keyRead]);
    if (!principal) throw new AppError("UNAUTHORIZED", "The API key is not valid");
    c.set("principal", principal);
    bindTenant(c, principal.tenantId);
    await next();
  };
}

/** The principal of an API key (null: unknown or revoked). Also used by /ui to check a pasted key. */
export async function principalForKey(
  { db, clock, embedder, log }: Pick<Services, "db" | "clock"> & Partial<Pick<Services, "embedder" | "log">>,
  env: Env,
  key: string,
): Promise<Principal | null> {
  const devKey = env.RECALL_DEV_API_KEY;
  const isDevKey = devKey !== undefined && key === devKey;
  // The local dev key is never cached: its tenant is created on demand in whatever database is current.
  // Another key this isolate has not seen is read with its tenant's scale in force, in one round trip.
  const alongside = isDevKey || !embedder ? undefined : scaleAlongsideKey(db, embedder.model, clock.now(), log ?? rootLogger);
  const principal = await findPrincipal(db, key, clock.now(), !isDevKey, alongside);
  if (principal || !isDevKey) return principal;
  await ensureDevKey(db, devKey, clock.now());
  return findPrincipal(db, key, clock.now(), false);
}
