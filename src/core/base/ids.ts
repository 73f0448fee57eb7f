import { randomToken } from "./crypto";

/** A random id with a type prefix (mem_…, key_…, t_…): 16 random bytes, so ids never collide across tenants. */
export function newId(prefix: string): string {
  return `${prefix}_${randomToken(16)}`;
}
