/**
 * Webhook signatures: `X-Recall-Timestamp: <unix seconds>` and
 * `X-Recall-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + rawBody)>`. A request is
 * accepted when the timestamp is within SIGNATURE_TOLERANCE_SECONDS of now and the signature
 * matches any of the tenant's active secrets (several during a rotation's overlap). The check
 * uses crypto.subtle.verify, which compares in constant time, and says nothing about which part
 * failed.
 */

/** How far a timestamp may be from now, either way (replays older than this are refused). */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function hexToBytes(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** The header value a sender puts in X-Recall-Signature (used by senders' tests and the docs' example). */
export async function signPayload(secret: string, timestamp: string, rawBody: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(`${timestamp}.${rawBody}`));
  return `v1=${[...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function verifySignature(args: {
  secrets: readonly string[];
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
  nowMs: number;
}): Promise<boolean> {
  const { secrets, timestamp, signature, rawBody, nowMs } = args;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature?.startsWith("v1=")) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const mac = hexToBytes(signature.slice(3));
  if (!mac || mac.length !== 32) return false;
  const data = encoder.encode(`${timestamp}.${rawBody}`);
  let ok = false;
  // Check every secret (no early exit), so timing does not tell which one matched.
  for (const secret of secrets) {
    if (await crypto.subtle.verify("HMAC", await hmacKey(secret), mac, data)) ok = true;
  }
  return ok;
}
