/**
 * The /ui session: the API key the user pasted, sealed with AES-GCM under a key derived from the
 * Worker secret UI_SESSION_SECRET, in an HttpOnly SameSite=Strict cookie. The cookie carries its
 * own expiry (checked on every request) and a random CSRF token that every form echoes; a
 * tampered, expired or foreign cookie opens nothing. Signing out records the session's id in KV
 * until it would have expired, so a copy of the cookie is dead too.
 */
import { randomToken, sha256Hex } from "../core/base/crypto";

export const SESSION_COOKIE = "recall_ui";
/** A session lasts this long from sign-in; then the user pastes the key again. */
export const SESSION_TTL_MS = 8 * 3600 * 1000;
/** Shorter secrets are refused: the cookie key is derived from it. */
export const MIN_SECRET_LENGTH = 32;

export interface Session {
  /** Random; names the session in the sign-out list. */
  id: string;
  /** The API key: used only for in-process API calls, never rendered or logged. */
  key: string;
  csrf: string;
  expiresAt: number;
}

export class SessionSecretMissing extends Error {
  constructor() {
    super(
      `UI_SESSION_SECRET is not set (or shorter than ${MIN_SECRET_LENGTH} characters): set it with 'wrangler secret put UI_SESSION_SECRET' to use /ui`,
    );
  }
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function cookieKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < MIN_SECRET_LENGTH) throw new SessionSecretMissing();
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("recall/ui-session/v1") },
        material,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    keys.set(secret, key);
  }
  return key;
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(text)) return null;
  try {
    const raw = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(raw, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export function newSession(key: string, now: number): Session {
  return { id: randomToken(16), key, csrf: randomToken(24), expiresAt: now + SESSION_TTL_MS };
}

export async function sealSession(session: Session, secret: string | undefined): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify({ i: session.id, k: session.key, c: session.csrf, e: session.expiresAt }));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await cookieKey(secret), plain));
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return toBase64Url(out);
}

/** The session in a cookie value, or null when it is absent, tampered with or expired. */
export async function openSession(value: string | undefined, secret: string | undefined, now: number): Promise<Session | null> {
  const key = await cookieKey(secret);
  if (!value) return null;
  const bytes = fromBase64Url(value);
  if (!bytes || bytes.length < 12 + 16) return null;
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, key, bytes.slice(12));
  } catch {
    return null;
  }
  const data = JSON.parse(new TextDecoder().decode(plain)) as { i: string; k: string; c: string; e: number };
  if (typeof data.e !== "number" || data.e <= now) return null;
  return { id: data.i, key: data.k, csrf: data.c, expiresAt: data.e };
}

/** Constant-time comparison of two CSRF tokens. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Secure is left off only for a browser talking to this machine over plain http (npm start). */
export function isLocalHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

const ENDED_PREFIX = "uisess:ended:v1:";
/** KV's shortest expiration. */
const MIN_KV_TTL_SECONDS = 60;

/** Sign-out: the session stays dead until it would have expired anyway. */
export async function endSession(kv: KVNamespace, session: Session, now: number): Promise<void> {
  const ttl = Math.max(MIN_KV_TTL_SECONDS, Math.ceil((session.expiresAt - now) / 1000));
  await kv.put(`${ENDED_PREFIX}${await sha256Hex(session.id)}`, "1", { expirationTtl: ttl });
}

export async function isEnded(kv: KVNamespace, session: Session): Promise<boolean> {
  return (await kv.get(`${ENDED_PREFIX}${await sha256Hex(session.id)}`)) !== null;
}
