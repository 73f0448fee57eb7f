/**
 * A deployment's D1 databases (docs/design/tenant-placement.md): the home database `DB` and the
 * placed ones, `DB_1`, `DB_2`, … in wrangler.toml. Every database has every table; the home one
 * alone holds what is read before a tenant is known (keys, the directory, helpdesk connections,
 * webhook secrets, calibration). A tenant's own rows live in the database the directory names.
 */
export const HOME_DATABASE = "DB";

const BINDING = /^DB(?:_[1-9]\d{0,2})?$/;

// By name and kind only: wrapping the bindings (sessions, the I/O trace) must not touch them, so a request answered before
// any query (a rate limit) reaches no database at all.
const isD1 = (value: unknown): value is D1Database => typeof value === "object" && value !== null;

/** The deployment's D1 bindings by name: DB first, then DB_1, DB_2, … in number order. */
export function databaseNames(env: object): string[] {
  const names = Object.keys(env).filter((name) => BINDING.test(name) && isD1((env as Record<string, unknown>)[name]));
  return names.sort((a, b) => suffix(a) - suffix(b));
}

const suffix = (name: string) => (name === HOME_DATABASE ? 0 : Number(name.slice(3)));

/** The D1 binding `name`; undefined when the deployment has none of that name (a directory entry naming a removed one). */
export function databaseBinding(env: object, name: string): D1Database | undefined {
  const binding = BINDING.test(name) ? (env as Record<string, unknown>)[name] : undefined;
  return isD1(binding) ? binding : undefined;
}
