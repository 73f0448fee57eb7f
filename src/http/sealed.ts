/**
 * What the API hands out and takes back as an opaque string (list cursors, read-your-writes
 * bookmarks) is sealed with the deployment's own key, so no tenant reads a database-wide position
 * in it (a row's global seq, D1's commit position: how much every tenant wrote). XChaCha20-Poly1305
 * (@noble/ciphers, audited) with a random 24-byte nonce, base64url: a sealed value changes every
 * time, and one altered character makes it unreadable.
 *
 * Sealing is synchronous (cursors are made in the middle of a handler's result); the key is read
 * once per isolate from D1 (`deployment_keys`, written by its migration) by `loadSealingKey`, which
 * the app's middleware awaits beside the API key's lookup, so it costs no round trip of its own.
 */
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";

const NONCE_BYTES = 24;
const KEY_NAME = "sealing";

let key: Uint8Array | null = null;

/**
 * Reads the deployment's key, once per isolate: the key is kept, never the read in flight, since a
 * Worker may not await another request's I/O (a request that did hung). Until one read lands, each
 * request reads it beside its other first queries.
 */
export async function loadSealingKey(db: D1Database): Promise<void> {
  if (key) return;
  const row = await db.prepare("SELECT key_hex FROM deployment_keys WHERE name = ?").bind(KEY_NAME).first<{ key_hex: string }>();
  if (!row || !/^[0-9a-f]{64}$/.test(row.key_hex)) throw new Error("deployment_keys has no sealing key: apply the D1 migrations");
  key = Uint8Array.from(row.key_hex.match(/../g)!, (byte) => parseInt(byte, 16));
}

function sealingKey(): Uint8Array {
  if (!key) throw new Error("the sealing key is not loaded: the app's middleware loads it before any handler runs");
  return key;
}

export function seal(text: string): string {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = xchacha20poly1305(sealingKey(), nonce).encrypt(new TextEncoder().encode(text));
  const bytes = new Uint8Array(NONCE_BYTES + sealed.length);
  bytes.set(nonce);
  bytes.set(sealed, NONCE_BYTES);
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The text a `seal` made, or null for anything else (another deployment's, altered, not base64url). */
export function unseal(sealed: string): string | null {
  try {
    const bytes = Uint8Array.from(atob(sealed.replaceAll("-", "+").replaceAll("_", "/")), (ch) => ch.charCodeAt(0));
    if (bytes.length <= NONCE_BYTES) return null;
    const plain = xchacha20poly1305(sealingKey(), bytes.subarray(0, NONCE_BYTES)).decrypt(bytes.subarray(NONCE_BYTES));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(plain);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("the sealing key is not loaded")) throw error;
    return null;
  }
}
