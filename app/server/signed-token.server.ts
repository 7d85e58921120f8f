// Tokens that prove the app issued them for one subject and one purpose, with nothing stored: `<subject>.<mac>`, the
// MAC an HMAC-SHA-256 of purpose and subject under SESSION_SECRET (WebCrypto). A link that must work without signing
// in (e.g. stopping reminder e-mails) carries one; changing the subject, or using it for another purpose, fails.
// After a rotation (SESSION_SECRET_PREVIOUS holds the old secret) tokens signed with either verify; only the current
// one signs.
import type { Env } from "./env";

type Secret = Pick<Env, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS">;

/** The secrets that verify, the signing one first. */
export const verifyingSecrets = (env: Secret): string[] =>
  env.SESSION_SECRET_PREVIOUS && env.SESSION_SECRET_PREVIOUS !== env.SESSION_SECRET
    ? [env.SESSION_SECRET, env.SESSION_SECRET_PREVIOUS]
    : [env.SESSION_SECRET];

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

const keyFor = (secret: string) =>
  crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
// The purpose is part of the signed message, so a token for one purpose never verifies for another.
const message = (purpose: string, subject: string) => encoder.encode(`${purpose}\n${subject}`);

export async function signToken(env: Secret, purpose: string, subject: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(env.SESSION_SECRET), message(purpose, subject));
  return `${subject}.${toBase64Url(mac)}`;
}

/** The subject of a token signed for `purpose`, or null (malformed, forged, tampered or for another purpose). */
export async function verifyToken(env: Secret, purpose: string, token: string, keyId?: string): Promise<string | null> {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const subject = token.slice(0, dot);
  const encoded = token.slice(dot + 1);
  const mac = fromBase64Url(encoded);
  // One spelling per MAC: the last character of 32 bytes in base64 carries 2 unused bits, so four spellings would
  // decode to the same bytes; only the one signToken writes is accepted.
  if (!mac || toBase64Url(mac.buffer) !== encoded) return null;
  // crypto.subtle.verify compares in constant time.
  for (const secret of await secretsFor(env, keyId)) {
    if (await crypto.subtle.verify("HMAC", await keyFor(secret), mac, message(purpose, subject))) return subject;
  }
  return null;
}

/**
 * A short public name of a secret (a MAC of a fixed text under it, 8 characters): what a long-lived signature carries
 * so the verifier knows which secret signed it, without revealing anything of the secret.
 */
export async function keyIdOf(secret: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(secret), encoder.encode("nika key id"));
  return toBase64Url(mac).slice(0, 8);
}

/** The id of the secret that signs now. */
export const signingKeyId = (env: Secret) => keyIdOf(env.SESSION_SECRET);

/** The secrets to try: the one named by `keyId` (none when it names no secret we hold), or all of them. */
async function secretsFor(env: Secret, keyId: string | undefined): Promise<string[]> {
  const secrets = verifyingSecrets(env);
  if (keyId === undefined) return secrets;
  for (const secret of secrets) if ((await keyIdOf(secret)) === keyId) return [secret];
  return [];
}
