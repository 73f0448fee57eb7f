/**
 * Signature checks shared by the providers. Every comparison is constant-time: HMACs through
 * crypto.subtle.verify, tokens through crypto.subtle.timingSafeEqual on their SHA-256 digests
 * (equal lengths whatever was sent). Every secret is tried (no early exit), so timing does not
 * tell which one matched, and nothing says which part of a delivery failed.
 */
import { fromBase64 } from "../../platform/ports/secret-box";

export type HmacHash = "SHA-1" | "SHA-256";
const encoder = new TextEncoder();

export function decodeBase64(text: string | undefined): Uint8Array | null {
  if (!text || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  try {
    return fromBase64(text);
  } catch {
    return null;
  }
}

export function decodeHex(text: string | undefined): Uint8Array | null {
  if (!text || !/^(?:[0-9a-f]{2})+$/i.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

async function hmacKey(key: string | Uint8Array, hash: HmacHash): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", typeof key === "string" ? encoder.encode(key) : key, { name: "HMAC", hash }, false, [
    "sign",
    "verify",
  ]);
}

export async function hmac(hash: HmacHash, key: string | Uint8Array, data: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(key, hash), encoder.encode(data)));
}

/** True when `mac` is the HMAC of `data` under any of `keys`. */
export async function hmacMatchesAny(
  hash: HmacHash,
  keys: readonly (string | Uint8Array)[],
  data: string,
  macs: readonly Uint8Array[],
): Promise<boolean> {
  const size = hash === "SHA-1" ? 20 : 32;
  const candidates = macs.filter((m) => m.length === size);
  const bytes = encoder.encode(data);
  let ok = false;
  for (const key of keys) {
    const k = await hmacKey(key, hash);
    for (const mac of candidates) if (await crypto.subtle.verify("HMAC", k, mac, bytes)) ok = true;
  }
  return ok;
}

/** Constant-time equality of a presented token with any of the secrets. */
export async function tokenMatchesAny(secrets: readonly string[], presented: string | undefined): Promise<boolean> {
  if (!presented) return false;
  const digest = async (s: string) => crypto.subtle.digest("SHA-256", encoder.encode(s));
  const given = await digest(presented);
  let ok = false;
  for (const secret of secrets) if (crypto.subtle.timingSafeEqual(given, await digest(secret))) ok = true;
  return ok;
}

/** Whether `timestampMs` is within `toleranceMs` of now, either way (stale and future-dated both fail). */
export function withinWindow(timestampMs: number, nowMs: number, toleranceMs: number): boolean {
  return Number.isFinite(timestampMs) && Math.abs(nowMs - timestampMs) <= toleranceMs;
}

export async function sha256Base64Url(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return btoa(String.fromCharCode(...digest))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}
