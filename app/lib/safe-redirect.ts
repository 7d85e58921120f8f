// The one rule for where the app may send a learner next (after sign-in, a sidebar toggle, a removed material): a
// path on our own site. Browsers drop tabs and newlines from a URL and read `\` as `/`, so `/\t/evil.example` and
// `/\evil.example` are `//evil.example` to them; a control character also makes the Location header itself invalid.

/** A stand-in origin: only whether the path stays on it matters, never which host it is. */
const SITE = "http://nika.invalid";
const MAX_REDIRECT_LENGTH = 2000;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** `to` as the path + query + hash it resolves to on our origin, or null when it would leave the site. */
export function sitePath(to: unknown): string | null {
  if (typeof to !== "string" || to.length > MAX_REDIRECT_LENGTH) return null;
  if (!to.startsWith("/") || to.startsWith("//") || UNSAFE_CHARACTERS.test(to)) return null;
  let url: URL;
  try {
    url = new URL(to, SITE);
  } catch {
    return null;
  }
  if (url.origin !== SITE) return null;
  // The URL parser's form: non-ASCII percent-encoded, so the Location header is always valid.
  return url.pathname + url.search + url.hash;
}

export const isSafeRedirect = (to: unknown): to is string => sitePath(to) !== null;
