// Security headers of every response the worker returns, set in this one place (server.ts calls
// `withSecurityHeaders`; entry.server.tsx puts the request's nonce on the page's scripts).
// See docs/decisions/0011-security-headers-and-config.md.
//
// Static files (build/client: /assets/*, /sw.js, /offline.html, icons) are answered by Cloudflare's
// asset layer before the worker runs; their headers come from public/_headers.
import { EMBED_PROVIDERS } from "../lib/video-embed"; // relative: vite.config.ts loads this file without the ~ alias
import type { Env } from "./env";

/** A fresh CSP nonce: 16 random bytes, base64. One per request. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const WILDCARD = "\u0000";

/**
 * The hosts a `^…$` host pattern of the embed allow-list matches, as CSP host sources. Only the
 * shapes the allow-list uses are understood — literals, `\.`, `\-`, `(a|b)` and `(a|b)?` groups, and a
 * character class with `+` inside the left-most label (→ `*.rest`, the closest CSP can say).
 * Anything else throws, so a new pattern cannot silently widen or drop the frame-src list.
 */
export function hostSources(pattern: RegExp): string[] {
  const source = pattern.source;
  if (!source.startsWith("^") || !source.endsWith("$") || pattern.flags.replace("i", "") !== "") {
    throw new Error(`unsupported embed host pattern ${pattern}`);
  }
  let at = 1;
  const end = source.length - 1;
  const fail = (): never => {
    throw new Error(`unsupported embed host pattern ${pattern} (at ${at})`);
  };

  const sequence = (): string[] => {
    let results = [""];
    while (at < end && source[at] !== "|" && source[at] !== ")") {
      let options: string[];
      const char = source[at]!;
      if (char === "\\") {
        const escaped = source[at + 1];
        if (escaped !== "." && escaped !== "-") fail();
        options = [escaped!];
        at += 2;
      } else if (char === "(") {
        at++;
        options = sequence();
        while (source[at] === "|") {
          at++;
          options = [...options, ...sequence()];
        }
        if (source[at] !== ")") fail();
        at++;
        if (source[at] === "?") {
          options = ["", ...options];
          at++;
        }
      } else if (char === "[") {
        const close = source.indexOf("]", at);
        if (close < 0 || !/^[a-z0-9-]+$/i.test(source.slice(at + 1, close)) || source[close + 1] !== "+") fail();
        options = [WILDCARD];
        at = close + 2;
      } else if (/[a-z0-9-]/i.test(char)) {
        options = [char];
        at++;
      } else {
        return fail();
      }
      if (source[at] === "?" || source[at] === "*" || source[at] === "+" || source[at] === "{") fail();
      results = results.flatMap((prefix) => options.map((option) => prefix + option));
    }
    return results;
  };

  const hosts = sequence();
  while (source[at] === "|") {
    at++;
    hosts.push(...sequence());
  }
  if (at !== end) fail();
  return hosts.map((host) => {
    const star = host.indexOf(WILDCARD);
    if (star < 0) return host.toLowerCase();
    const dot = host.indexOf(".");
    if (host.lastIndexOf(WILDCARD) !== star || dot < star || dot === -1) fail();
    return `*${host.slice(dot)}`.toLowerCase();
  });
}

/** frame-src: exactly the video players the lesson page may embed (app/lib/video-embed.ts). */
export const FRAME_SOURCES: readonly string[] = (() => {
  const hosts = [...new Set(EMBED_PROVIDERS.flatMap((provider) => hostSources(provider.host)))];
  const wildcards = hosts.filter((host) => host.startsWith("*."));
  // A host a wildcard already covers is dropped (e.g. iframe.cloudflarestream.com by *.cloudflarestream.com).
  const covered = (host: string) => !host.startsWith("*.") && wildcards.some((w) => host.endsWith(w.slice(1)));
  return hosts.filter((host) => !covered(host)).map((host) => `https://${host}`);
})();

/** Responses that are not pages: nothing may load from them, nobody may frame them. */
export const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The page policy. Scripts: our files and inline scripts carrying this request's nonce (no
 * 'unsafe-inline'). Styles keep 'unsafe-inline': React `style` attributes (hero backgrounds, progress
 * bars) and the <style> Radix's scroll lock inserts. Images and media also allow any https origin:
 * admins may give an image by URL and a lesson may play a direct .mp4 from another host.
 */
export function contentSecurityPolicy({ nonce, url, formTargets = [] }: { nonce?: string; url: URL; formTargets?: readonly string[] }): string {
  const socket = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
  return [
    "default-src 'self'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: data: https:",
    `connect-src 'self' ${socket}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    `frame-src ${FRAME_SOURCES.join(" ")}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join("")}`,
  ].join("; ");
}

/**
 * Where a form of ours may end up: browsers apply form-action to the redirects after a post too, so
 * the purchase form's 303 to Stripe's checkout page (and a sign-in form leading to Google) needs their
 * origins — Stripe's and Google's own, or the ones the settings point at (the local fakes in tests).
 */
export function formTargetOrigins(
  env: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_API_URL" | "GOOGLE_CLIENT_ID" | "GOOGLE_AUTHORIZATION_URL">,
): string[] {
  const origins = new Set<string>();
  if (env.STRIPE_SECRET_KEY) origins.add(env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL).origin : "https://checkout.stripe.com");
  if (env.GOOGLE_CLIENT_ID)
    origins.add(env.GOOGLE_AUTHORIZATION_URL ? new URL(env.GOOGLE_AUTHORIZATION_URL).origin : "https://accounts.google.com");
  return [...origins];
}

export const PERMISSIONS_POLICY = "microphone=(self), camera=(), geolocation=(), payment=()";
export const HSTS = "max-age=31536000; includeSubDomains";

export type SecurityHeaderOptions = {
  request: Request;
  /** The nonce the page's scripts carry (load context `cspNonce`). */
  nonce?: string;
  /** APP_ENV=production: adds Strict-Transport-Security. */
  production: boolean;
  /** Outside origins a form may post or be redirected to (formTargetOrigins). */
  formTargets?: readonly string[];
};

/**
 * Adds the security headers to a response without touching its body (streams keep streaming).
 * Headers the response already has win (e.g. /media's sandboxing CSP). A WebSocket upgrade (101)
 * is returned as it is: its headers cannot be rebuilt.
 */
export function withSecurityHeaders(response: Response, { request, nonce, production, formTargets }: SecurityHeaderOptions): Response {
  if (response.status === 101 || (response as Response & { webSocket?: unknown }).webSocket) return response;
  let headers = response.headers;
  try {
    headers.set("X-Content-Type-Options", "nosniff");
  } catch {
    // Immutable headers (a Response from fetch()): same body stream, fresh headers.
    response = new Response(response.body, response);
    headers = response.headers;
    headers.set("X-Content-Type-Options", "nosniff");
  }
  const setDefault = (name: string, value: string) => {
    if (!headers.has(name)) headers.set(name, value);
  };
  const html = /^text\/html\b/i.test(headers.get("Content-Type") ?? "");
  setDefault("Content-Security-Policy", html ? contentSecurityPolicy({ nonce, url: new URL(request.url), formTargets }) : NON_HTML_CSP);
  setDefault("Permissions-Policy", PERMISSIONS_POLICY);
  setDefault("X-Frame-Options", "DENY");
  setDefault("Referrer-Policy", "strict-origin-when-cross-origin");
  setDefault("Cross-Origin-Opener-Policy", "same-origin");
  if (production) setDefault("Strict-Transport-Security", HSTS);
  return response;
}
