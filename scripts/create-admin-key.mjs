// Creates a tenant and its first admin key directly in D1 — the bootstrap for production, where
// no key exists yet to call POST /v1/admin/keys with. Prints the key once; only its hash is stored.
//   node scripts/create-admin-key.mjs "Acme Support" [--local]
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";

const name = process.argv[2];
const where = process.argv.includes("--local") ? ["--local", "--env", "local"] : ["--remote", "--env", ""];
if (!name || name.startsWith("--")) {
  console.error('usage: node scripts/create-admin-key.mjs "<tenant name>" [--local]');
  process.exit(2);
}
const token = (bytes) => randomBytes(bytes).toString("base64url");
const key = `rk_${token(32)}`;
const tenantId = `t_${token(16)}`;
const now = Date.now();
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const sql = [
  `INSERT INTO tenants (id, name, created_at) VALUES (${quote(tenantId)}, ${quote(name)}, ${now});`,
  `INSERT INTO api_keys (id, tenant_id, key_hash, key_prefix, role, name, created_at) VALUES (${quote(`key_${token(16)}`)}, ${quote(tenantId)}, ${quote(createHash("sha256").update(key).digest("hex"))}, ${quote(key.slice(0, 10))}, 'admin', 'bootstrap', ${now});`,
].join(" ");
const result = spawnSync("npx", ["wrangler", "d1", "execute", "DB", ...where, "--command", sql], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`\ntenant ${tenantId} (${name})\nadmin key (shown once, store it now): ${key}`);
