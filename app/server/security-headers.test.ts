import { describe, expect, it } from "vitest";
import { EMBED_PROVIDERS, allowedEmbedSrc } from "~/lib/video-embed";
import {
  FRAME_SOURCES,
  HSTS,
  NON_HTML_CSP,
  PERMISSIONS_POLICY,
  contentSecurityPolicy,
  formTargetOrigins,
  createNonce,
  hostSources,
  withSecurityHeaders,
} from "./security-headers.server";

const request = new Request("https://nika.app/signin");
const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

/** Does a CSP host source (`https://host` or `https://*.domain`) allow this URL? */
const allows = (source: string, url: URL) => {
  const host = source.replace(/^https:\/\//, "");
  return url.protocol === "https:" && (host.startsWith("*.") ? url.hostname.endsWith(host.slice(1)) : url.hostname === host);
};

describe("nonce", () => {
  it("is 16 random bytes in base64, new each time", () => {
    const a = createNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(createNonce()).not.toBe(a);
  });
});

describe("frame-src from the embed allow-list", () => {
  it("expands the allow-list's host patterns", () => {
    expect(hostSources(/^(www\.|m\.)?youtube(-nocookie)?\.com$/).sort()).toEqual(
      ["youtube.com", "youtube-nocookie.com", "www.youtube.com", "www.youtube-nocookie.com", "m.youtube.com", "m.youtube-nocookie.com"].sort(),
    );
    expect(hostSources(/^customer-[a-z0-9]+\.cloudflarestream\.com$/)).toEqual(["*.cloudflarestream.com"]);
    expect(hostSources(/^player-vz-[a-z0-9-]+\.tv\.pandavideo\.com\.br$/)).toEqual(["*.tv.pandavideo.com.br"]);
  });

  it("refuses pattern shapes it cannot turn into CSP sources", () => {
    for (const pattern of [
      /youtube\.com$/,
      /^.*\.example\.com$/,
      /^a\d+\.example\.com$/,
      /^www\.[a-z]+$/,
      /^example\.com?$/,
      /^(a|b)+\.example\.com$/,
    ]) {
      expect(() => hostSources(pattern), String(pattern)).toThrow(/unsupported embed host pattern/);
    }
  });

  it("lists the course video players, https only", () => {
    expect([...FRAME_SOURCES].sort()).toEqual(
      [
        "https://youtube.com",
        "https://www.youtube.com",
        "https://m.youtube.com",
        "https://youtube-nocookie.com",
        "https://www.youtube-nocookie.com",
        "https://m.youtube-nocookie.com",
        "https://player.vimeo.com",
        "https://fast.wistia.net",
        "https://fast.wistia.com",
        "https://loom.com",
        "https://www.loom.com",
        "https://iframe.mediadelivery.net",
        "https://player.mediadelivery.net",
        "https://*.cloudflarestream.com",
        "https://iframe.videodelivery.net",
        "https://drive.google.com",
        "https://*.tv.pandavideo.com.br",
        "https://dailymotion.com",
        "https://www.dailymotion.com",
        "https://geo.dailymotion.com",
      ].sort(),
    );
  });

  it("allows every player the allow-list accepts (so the two cannot drift)", () => {
    const players = [
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
      "https://player.vimeo.com/video/76979871",
      "https://fast.wistia.net/embed/iframe/abc123",
      "https://www.loom.com/embed/0123abcd",
      "https://iframe.mediadelivery.net/embed/123/abc-def",
      "https://customer-abc123.cloudflarestream.com/5d5bc37ffcf54c9b82e996823bffbb81/iframe",
      "https://iframe.videodelivery.net/5d5bc37ffcf54c9b82e996823bffbb81",
      "https://drive.google.com/file/d/1AbC/preview",
      "https://player-vz-7b6a2c1d-8e3.tv.pandavideo.com.br/embed/",
      "https://www.dailymotion.com/embed/video/x8abc",
      "https://geo.dailymotion.com/player.html",
    ];
    for (const player of players) {
      const embed = allowedEmbedSrc(player);
      expect(embed, player).not.toBeNull();
      expect(
        FRAME_SOURCES.some((source) => allows(source, new URL(embed!.src))),
        player,
      ).toBe(true);
    }
    // and every rule contributes at least one source
    for (const rule of EMBED_PROVIDERS) expect(hostSources(rule.host).length).toBeGreaterThan(0);
  });
});

describe("the page policy", () => {
  it("allows scripts only from us or with the nonce, and nothing inline without it", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "abc+/==", url: new URL("https://nika.app/") }));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc+/=='"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:", "https:"]);
    expect(csp.get("media-src")).toEqual(["'self'", "blob:", "data:", "https:"]);
    expect(csp.get("connect-src")).toEqual(["'self'", "wss://nika.app"]);
    expect(csp.get("worker-src")).toEqual(["'self'"]);
    expect(csp.get("manifest-src")).toEqual(["'self'"]);
    expect(csp.get("frame-src")).toEqual([...FRAME_SOURCES]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    expect([...csp.values()].flat().some((v) => v === "'unsafe-eval'")).toBe(false);
  });

  it("lets forms reach Stripe's checkout and Google's consent page only when they are configured", () => {
    expect(formTargetOrigins({})).toEqual([]);
    expect(formTargetOrigins({ STRIPE_SECRET_KEY: "sk_live_x", GOOGLE_CLIENT_ID: "id" })).toEqual([
      "https://checkout.stripe.com",
      "https://accounts.google.com",
    ]);
    const local = formTargetOrigins({
      STRIPE_SECRET_KEY: "sk_test",
      STRIPE_API_URL: "http://127.0.0.1:4010",
      GOOGLE_CLIENT_ID: "id",
      GOOGLE_AUTHORIZATION_URL: "http://127.0.0.1:4010/google/o/oauth2/v2/auth",
    });
    expect(local).toEqual(["http://127.0.0.1:4010"]);
    const csp = directives(contentSecurityPolicy({ nonce: "n", url: new URL("https://nika.app/"), formTargets: local }));
    expect(csp.get("form-action")).toEqual(["'self'", "http://127.0.0.1:4010"]);
  });

  it("lets the live comments socket reach the page's own host (ws on plain http)", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "n", url: new URL("http://localhost:8797/courses") }));
    expect(csp.get("connect-src")).toEqual(["'self'", "ws://localhost:8797"]);
  });
});

describe("withSecurityHeaders", () => {
  const html = () => new Response("<p>oi</p>", { headers: { "Content-Type": "text/html; charset=utf-8" } });

  it("sets every header on a page, with the request's nonce", () => {
    const response = withSecurityHeaders(html(), { request, nonce: "N0nce==", production: false });
    expect(response.headers.get("Content-Security-Policy")).toContain("script-src 'self' 'nonce-N0nce=='");
    expect(response.headers.get("Permissions-Policy")).toBe(PERMISSIONS_POLICY);
    expect(PERMISSIONS_POLICY).toBe("microphone=(self), camera=(), geolocation=(), payment=()");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("Cross-Origin-Opener-Policy")).toBe("same-origin");
    expect(response.headers.has("Strict-Transport-Security")).toBe(false);
  });

  it("adds HSTS only in production", () => {
    const response = withSecurityHeaders(html(), { request, nonce: "n", production: true });
    expect(response.headers.get("Strict-Transport-Security")).toBe(HSTS);
    expect(HSTS).toBe("max-age=31536000; includeSubDomains");
  });

  it("gives anything that is not a page the restrictive policy", () => {
    for (const response of [
      Response.json({ ok: true }),
      new Response(null, { status: 302, headers: { Location: "/" } }),
      new Response("data: x\n\n", { headers: { "Content-Type": "text/event-stream" } }),
    ]) {
      expect(withSecurityHeaders(response, { request, nonce: "n", production: false }).headers.get("Content-Security-Policy")).toBe(
        NON_HTML_CSP,
      );
    }
  });

  it("keeps a policy the response chose itself (/media's sandbox)", () => {
    const own = new Response("img", { headers: { "Content-Type": "image/png", "Content-Security-Policy": "default-src 'none'; sandbox" } });
    const response = withSecurityHeaders(own, { request, production: false });
    expect(response.headers.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("returns a WebSocket upgrade untouched", () => {
    const upgrade = { status: 101, webSocket: {}, headers: new Headers() } as unknown as Response;
    expect(withSecurityHeaders(upgrade, { request, production: true })).toBe(upgrade);
  });

  it("keeps the body streaming, also when the headers are immutable", async () => {
    let pull!: (chunk: string) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        pull = (chunk) => (chunk ? controller.enqueue(new TextEncoder().encode(chunk)) : controller.close());
      },
    });
    class ImmutableHeaders extends Headers {
      override set(): never {
        throw new TypeError("immutable");
      }
    }
    const frozen = {
      status: 200,
      statusText: "OK",
      body,
      headers: new ImmutableHeaders({ "Content-Type": "text/event-stream" }),
    } as unknown as Response;
    const response = withSecurityHeaders(frozen, { request, production: false });
    expect(response).not.toBe(frozen);
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    const reader = response.body!.getReader();
    pull("data: 1\n\n");
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
    pull("");
    expect((await reader.read()).done).toBe(true);
    // A real immutable one (Response.redirect's headers are immutable, like fetch()'s).
    const redirect = withSecurityHeaders(Response.redirect("https://nika.app/"), { request, production: false });
    expect([redirect.status, redirect.headers.get("Location"), redirect.headers.get("Content-Security-Policy")]).toEqual([
      302,
      "https://nika.app/",
      NON_HTML_CSP,
    ]);
  });
});
