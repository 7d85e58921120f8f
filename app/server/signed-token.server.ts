// Tokens that prove the app issued them for one subject and one purpose, with nothing stored: `<subject>.<mac>`, the
// MAC an HMAC-SHA-256 of purpose and subject under SESSION_SECRET (WebCrypto). A link that must work without signing
// in (e.g. stopping reminder e-mails) carries one; changing the subject, or using it for another purpose, fails.
import type { Env } from "./env";

type Secret = Pick<Env, "SESSION_SECRET">;

const encoder = new TextEncoder();
const toBase64Url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const keyFor = (env: Secret) =>
  crypto.subtle.importKey("raw", encoder.encode(env.SESSION_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
// The purpose is part of the signed message, so a token for one purpose never verifies for another.
const message = (purpose: string, subject: string) => encoder.encode(`${purpose}\n${subject}`);

export async function signToken(env: Secret, purpose: string, subject: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(env), message(purpose, subject));
  return `${subject}.${toBase64Url(mac)}`;
}

/** The subject of a token signed for `purpose`, or null (malformed, forged, tampered or for another purpose). */
export async function verifyToken(env: Secret, purpose: string, token: string): Promise<string | null> {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const subject = token.slice(0, dot);
  const encoded = token.slice(dot + 1);
  const mac = fromBase64Url(encoded);
  // One spelling per MAC: the last character of 32 bytes in base64 carries 2 unused bits, so four spellings would
  // decode to the same bytes; only the one signToken writes is accepted.
  if (!mac || toBase64Url(mac.buffer) !== encoded) return null;
  // crypto.subtle.verify compares in constant time.
  return (await crypto.subtle.verify("HMAC", await keyFor(env), mac, message(purpose, subject))) ? subject : null;
}
