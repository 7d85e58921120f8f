// Google's side of "Entrar com Google" (OpenID Connect: authorization code + PKCE, decision 0017): its
// endpoints and settings, the remix-auth-oauth2 strategy, and the checks of what Google answers (ID token
// and userinfo). What happens with the identity afterwards (find, link or create the account) is
// google.server.ts.
import type { AppLoadContext } from "react-router";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { isProduction, type Env } from "~/server/env";

/** Google's endpoints (https://accounts.google.com/.well-known/openid-configuration); settings override them for tests. */
export const GOOGLE_ENDPOINTS = {
  authorization: "https://accounts.google.com/o/oauth2/v2/auth",
  token: "https://oauth2.googleapis.com/token",
  userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
} as const;
export const GOOGLE_SCOPES = ["openid", "email", "profile"];
export const GOOGLE_CALLBACK_PATH = "/auth/google/callback";
/** remix-auth-oauth2 keeps each attempt's state and PKCE verifier in a cookie named `<this>:<uuid>`. */
export const GOOGLE_STATE_COOKIE = "nika_oauth_google";
/** The `iss` of Google's ID tokens (https://developers.google.com/identity/openid-connect/openid-connect#validatinganidtoken). */
const GOOGLE_ISSUERS = new Set(["https://accounts.google.com", "accounts.google.com"]);

export type GoogleSettings = { clientId: string; clientSecret: string; authorizationUrl: string; tokenUrl: string; userinfoUrl: string };

/** Google sign-in's settings, or null when it is not configured (client id or secret missing). */
export function googleSettings(env: Env): GoogleSettings | null {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null;
  return {
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    authorizationUrl: env.GOOGLE_AUTHORIZATION_URL ?? GOOGLE_ENDPOINTS.authorization,
    tokenUrl: env.GOOGLE_TOKEN_URL ?? GOOGLE_ENDPOINTS.token,
    userinfoUrl: env.GOOGLE_USERINFO_URL ?? GOOGLE_ENDPOINTS.userinfo,
  };
}

/** Who Google says signed in. Whether to trust the e-mail (`emailVerified`) is the account logic's call. */
export type GoogleIdentity = { sub: string; email: string; emailVerified: boolean; name: string };

/** Anything that went wrong between Google and us after the consent page (the user only sees one message). */
export class GoogleProtocolError extends Error {
  override name = "GoogleProtocolError";
}

const userinfoSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().trim().min(3).max(254),
  // A boolean in the userinfo JSON; older Google answers sent the string "true".
  email_verified: z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")]).default(false),
  name: z.string().optional(),
});

/** The claims of an ID token received straight from the token endpoint over TLS (OIDC Core §3.1.3.7: no signature check needed). */
function idTokenClaims(idToken: string): Record<string, unknown> {
  const payload = idToken.split(".")[1];
  if (!payload) throw new GoogleProtocolError("malformed id_token");
  try {
    const bytes = Uint8Array.from(atob(payload.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    throw new GoogleProtocolError("malformed id_token");
  }
}

/**
 * The verify step of the Google strategy: the ID token must be ours (aud = client id, Google's iss, not
 * expired), then the userinfo endpoint (Bearer access token) names the user, with the same `sub`
 * (OIDC Core §5.3.2).
 */
async function googleIdentity(settings: GoogleSettings, tokens: OAuth2Strategy.VerifyOptions["tokens"]): Promise<GoogleIdentity> {
  const claims = idTokenClaims(tokens.idToken());
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(settings.clientId)) throw new GoogleProtocolError("id_token for another client");
  if (typeof claims.iss !== "string" || !GOOGLE_ISSUERS.has(claims.iss)) throw new GoogleProtocolError("id_token from another issuer");
  if (typeof claims.exp !== "number" || claims.exp * 1000 < Date.now()) throw new GoogleProtocolError("expired id_token");

  const response = await fetch(settings.userinfoUrl, {
    headers: { Authorization: `Bearer ${tokens.accessToken()}`, Accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new GoogleProtocolError(`userinfo answered ${response.status}`);
  const parsed = userinfoSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new GoogleProtocolError("unexpected userinfo body");
  if (parsed.data.sub !== claims.sub) throw new GoogleProtocolError("userinfo sub differs from the id_token's");
  const { sub, email, email_verified: emailVerified, name } = parsed.data;
  return { sub, email: email.toLowerCase(), emailVerified, name: name?.trim() ?? "" };
}

/**
 * The Google strategy (remix-auth-oauth2 with Google's endpoints), or null when Google is not configured
 * or the public origin, for the redirect URI, is unknown (APP_URL, else `request`'s).
 */
export function googleStrategy(context: AppLoadContext, request?: Request): OAuth2Strategy<GoogleIdentity> | null {
  const env = context.cloudflare.env;
  const google = googleSettings(env);
  const origin = env.APP_URL ?? (request ? new URL(request.url).origin : null);
  if (!google || !origin) return null;
  return new OAuth2Strategy<GoogleIdentity>(
    {
      cookie: { name: GOOGLE_STATE_COOKIE, maxAge: 10 * 60, ...(isProduction(env) ? { secure: true } : {}) },
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      authorizationEndpoint: google.authorizationUrl,
      tokenEndpoint: google.tokenUrl,
      redirectURI: `${origin.replace(/\/$/, "")}${GOOGLE_CALLBACK_PATH}`,
      scopes: GOOGLE_SCOPES,
    },
    ({ tokens }) => googleIdentity(google, tokens),
  );
}
