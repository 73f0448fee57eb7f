/**
 * Encryption at rest for webhook secrets: AES-256-GCM (WebCrypto) under a key-encryption key from
 * the SECRETS_KEK binding (a Worker secret in production: `wrangler secret put SECRETS_KEK`).
 *
 * SECRETS_KEK is a comma-separated keyring, `<keyId>:<base64 of 32 bytes>[,<keyId>:<base64>…]`.
 * The first key seals; every key opens, so the KEK rotates by putting a new key first and keeping
 * the old one until the cron has re-sealed every row (`key_id` says which key sealed a row).
 * A sealed value is base64(iv(12) ‖ ciphertext ‖ tag(16)); the additional data names the tenant
 * and the row, so a ciphertext copied onto another row does not open.
 */
import { ConfigError } from "../observe/config-error";

export interface SecretBox {
  /** The key id new ciphertexts are sealed with. */
  readonly currentKeyId: string;
  seal(plaintext: string, additionalData: string): Promise<{ ciphertext: string; keyId: string }>;
  /** Throws when the key id is unknown or the ciphertext/additional data do not match. */
  open(ciphertext: string, keyId: string, additionalData: string): Promise<string>;
}

const IV_BYTES = 12;
const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Parses SECRETS_KEK; a ConfigError (→ 503, logged) says what is wrong without echoing key material. */
export async function createSecretBox(kek: string | undefined): Promise<SecretBox> {
  if (!kek?.trim()) {
    throw new ConfigError(
      "SECRETS_KEK is not set: webhook secrets cannot be encrypted or read. Set it with `wrangler secret put SECRETS_KEK` (format keyId:base64-32-bytes)",
    );
  }
  const keys = new Map<string, CryptoKey>();
  let currentKeyId = "";
  for (const entry of kek.split(",")) {
    const [keyId = "", material = ""] = entry.trim().split(/:(.*)/s);
    if (!KEY_ID.test(keyId) || !material)
      throw new ConfigError("SECRETS_KEK: every entry must look like keyId:base64 (keyId of A-Z a-z 0-9 _ . -)");
    let raw: Uint8Array;
    try {
      raw = fromBase64(material);
    } catch {
      throw new ConfigError(`SECRETS_KEK: key "${keyId}" is not valid base64`);
    }
    if (raw.length !== 32) throw new ConfigError(`SECRETS_KEK: key "${keyId}" must be 32 bytes (AES-256), got ${raw.length}`);
    if (keys.has(keyId)) throw new ConfigError(`SECRETS_KEK: key id "${keyId}" appears twice`);
    keys.set(keyId, await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    currentKeyId ||= keyId;
  }
  return {
    currentKeyId,
    async seal(plaintext, additionalData) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(additionalData) },
        keys.get(currentKeyId)!,
        encoder.encode(plaintext),
      );
      const out = new Uint8Array(IV_BYTES + sealed.byteLength);
      out.set(iv);
      out.set(new Uint8Array(sealed), IV_BYTES);
      return { ciphertext: toBase64(out), keyId: currentKeyId };
    },
    async open(ciphertext, keyId, additionalData) {
      const key = keys.get(keyId);
      if (!key) throw new ConfigError(`SECRETS_KEK has no key "${keyId}" (a row sealed under a retired key)`);
      const bytes = fromBase64(ciphertext);
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.slice(0, IV_BYTES), additionalData: encoder.encode(additionalData) },
        key,
        bytes.slice(IV_BYTES),
      );
      return decoder.decode(plain);
    },
  };
}
