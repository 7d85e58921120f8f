// Google's OAuth 2.0 / OpenID Connect endpoints for a web server app, as the fake upstream speaks them
// (https://developers.google.com/identity/openid-connect/openid-connect and
// https://developers.google.com/identity/protocols/oauth2/web-server). Mounted by server.mjs under /google/;
// `handleGoogle` answers false for any other path.
//
//   GET  /google/o/oauth2/v2/auth     the authorization endpoint: checks client_id, redirect_uri (http/https),
//                                     response_type=code, a scope with openid, state, code_challenge with
//                                     code_challenge_method=S256 — a request it refuses gets Google's error page
//                                     (400, "Erro 400: invalid_request", never a redirect, as RFC 6749 §4.1.2.1 says
//                                     for a bad client or redirect URI). Otherwise a consent page: a plain HTML form
//                                     (no JS) with the identity to sign in as — e-mail, name, "e-mail verificado"
//                                     (checked), sub (blank = a stable 21-digit number derived from the e-mail) — and
//                                     the buttons "Permitir" and "Negar".
//   POST /google/o/oauth2/v2/auth/consent   the consent form: Permitir → 302 redirect_uri?code=…&state=…&scope=…;
//                                     Negar → 302 redirect_uri?error=access_denied&state=…
//   POST /google/token                the token endpoint (application/x-www-form-urlencoded): the client authenticates
//                                     with HTTP Basic (as arctic sends it) or client_id/client_secret in the body, not
//                                     both; grant_type=authorization_code, a code issued to that client and used once
//                                     (10 minutes), the same redirect_uri, and PKCE: BASE64URL(SHA256(code_verifier)) =
//                                     code_challenge. 200 {access_token, expires_in, token_type: "Bearer", scope,
//                                     id_token} (an RS256 JWT signed with this process's key, see /google/oauth2/v3/certs),
//                                     or Google's errors: 401 invalid_client, 400 invalid_grant / redirect_uri_mismatch /
//                                     unsupported_grant_type / invalid_request.
//   GET  /google/v1/userinfo          with "Authorization: Bearer <access_token>": {sub, email, email_verified, name,
//                                     given_name, family_name, picture}, or 401 with WWW-Authenticate.
//   GET  /google/.well-known/openid-configuration, /google/oauth2/v3/certs   discovery document and signing keys.
//
// Test hooks:
//   POST /__google/next?fail=token|userinfo|audience|issuer|expired|sub[&status=N][&error=CODE]   the next call to that
//        endpoint fails: token → 400 {error: CODE (default invalid_grant)} (or `status`); userinfo → 401 (or `status`).
//        The others answer a success that a client must refuse: audience / issuer / expired → the next token answer's
//        ID token was issued to another client (aud) / by another issuer (iss) / expired an hour ago (exp); sub → the
//        next userinfo answer names another account (a `sub` that is not the ID token's)
//   GET  /__google/requests            what the token and userinfo endpoints received (newest last; secrets masked)
//   GET  /__google/sub?email=…         the sub the consent page derives for an e-mail
//   POST /__google/reset               forgets queued failures and logged requests
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

/** What the real Google puts in `iss` of its ID tokens. */
const ISSUER = "https://accounts.google.com";
/** The `iss` of an ID token queued with fail=issuer: some other OpenID provider's. */
const OTHER_ISSUER = "https://login.example.com";
const CODE_TTL_MS = 10 * 60_000;
const ACCESS_TOKEN_TTL_S = 3599;
/** The scopes Google reports back for `openid email profile`. */
const GRANTED_SCOPE = "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile";

/** Authorization requests waiting on the consent page, by id. */
const pending = new Map();
/** Issued codes → {clientId, redirectUri, codeChallenge, identity, nonce, expiresAt, used}. */
const codes = new Map();
/** Access tokens → {identity, clientId, expiresAt}. */
const accessTokens = new Map();
/** Queued failures: {endpoint: "token" | "userinfo" | "audience" | "issuer" | "expired" | "sub", status, error}. */
const failures = [];
const requests = [];

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const KEY_ID = createHash("sha256")
  .update(publicKey.export({ type: "spki", format: "der" }))
  .digest("hex")
  .slice(0, 40);

const base64url = (bytes) => Buffer.from(bytes).toString("base64url");
const randomId = (bytes = 32) => randomBytes(bytes).toString("base64url");

/** Google's `sub`: a decimal string of 21 digits, stable per account (here: per lower-cased e-mail). */
export function subFor(email) {
  const digest = createHash("sha256").update(email.trim().toLowerCase()).digest();
  return `1${(digest.readBigUInt64BE(0) % 10n ** 20n).toString().padStart(20, "0")}`;
}

function json(res, status, body, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function page(res, status, title, body) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(`<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}
input[type=email],input[type=text]{width:100%;padding:.4rem;box-sizing:border-box}button{margin:1rem .5rem 0 0;padding:.5rem 1rem}</style>
</head>
<body><main>${body}</main></body>
</html>`);
}

/** Google's "Erro 400: invalid_request" page: a request it refuses is never sent back to the app. */
function errorPage(res, error, description) {
  page(
    res,
    400,
    "Erro 400",
    `<h1>Acesso bloqueado: erro de autorização</h1><p><strong>Erro 400: ${escapeHtml(error)}</strong></p><p>${escapeHtml(description)}</p>`,
  );
}

const isHttpUrl = (value) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

function redirectTo(res, redirectUri, params) {
  const target = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  res.writeHead(302, { Location: target.toString(), "Cache-Control": "no-store" });
  res.end();
}

// ——— authorization endpoint + consent page ———

function authorize(res, url, opts) {
  const q = url.searchParams;
  const clientId = q.get("client_id");
  const redirectUri = q.get("redirect_uri");
  if (clientId !== opts["google-client-id"]) return errorPage(res, "invalid_client", `The OAuth client was not found (client_id=${clientId}).`);
  if (!redirectUri || !isHttpUrl(redirectUri)) return errorPage(res, "redirect_uri_mismatch", "Missing or invalid redirect_uri.");
  if (q.get("response_type") !== "code") return errorPage(res, "invalid_request", "response_type must be code.");
  const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
  if (!scopes.includes("openid")) return errorPage(res, "invalid_request", "The scope must include openid.");
  if (!q.get("state")) return errorPage(res, "invalid_request", "Missing state (this stand-in requires it).");
  if (!q.get("code_challenge") || q.get("code_challenge_method") !== "S256") {
    return errorPage(res, "invalid_request", "Missing code_challenge, or code_challenge_method is not S256.");
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(q.get("code_challenge"))) return errorPage(res, "invalid_request", "Invalid code_challenge.");

  const id = randomId(16);
  pending.set(id, {
    clientId,
    redirectUri,
    state: q.get("state"),
    codeChallenge: q.get("code_challenge"),
    nonce: q.get("nonce"),
    scopes,
    expiresAt: Date.now() + CODE_TTL_MS,
  });
  const email = q.get("login_hint") || "aluna.google@example.com";
  page(
    res,
    200,
    "Fazer login com o Google",
    `<h1>Fazer login com o Google</h1>
<p>Escolha a conta que o app <strong>${escapeHtml(clientId)}</strong> vai receber (nome, e-mail e foto).</p>
<form method="post" action="/google/o/oauth2/v2/auth/consent">
  <input type="hidden" name="request" value="${id}">
  <label for="email">E-mail</label><input id="email" name="email" type="email" required value="${escapeHtml(email)}">
  <label for="name">Nome</label><input id="name" name="name" type="text" value="Aluna Google">
  <label><input name="email_verified" type="checkbox" value="true" checked> E-mail verificado</label>
  <label for="sub">sub (vazio: derivado do e-mail)</label><input id="sub" name="sub" type="text" inputmode="numeric">
  <button type="submit" name="decision" value="allow">Permitir</button>
  <button type="submit" name="decision" value="deny">Negar</button>
</form>`,
  );
}

async function consent(req, res) {
  const form = await readForm(req);
  const request = pending.get(form.get("request") ?? "");
  if (!request || request.expiresAt < Date.now()) return errorPage(res, "invalid_request", "This sign-in request expired. Start again.");
  pending.delete(form.get("request"));
  if (form.get("decision") !== "allow") return redirectTo(res, request.redirectUri, { error: "access_denied", state: request.state });

  const email = (form.get("email") ?? "").trim();
  if (!email.includes("@")) return errorPage(res, "invalid_request", "An e-mail is required.");
  const name = (form.get("name") ?? "").trim();
  const [given = "", ...family] = name.split(/\s+/);
  const identity = {
    sub: (form.get("sub") ?? "").trim() || subFor(email),
    email,
    email_verified: form.get("email_verified") === "true",
    name,
    given_name: given,
    family_name: family.join(" "),
    picture: `https://lh3.googleusercontent.com/a/fake-${subFor(email).slice(-8)}=s96-c`,
  };
  const code = `4/0${randomId(40)}`;
  codes.set(code, {
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    nonce: request.nonce,
    identity,
    expiresAt: Date.now() + CODE_TTL_MS,
    used: false,
  });
  redirectTo(res, request.redirectUri, { code, state: request.state, scope: GRANTED_SCOPE, authuser: "0", prompt: "consent" });
}

// ——— token endpoint ———

/** The client's credentials: HTTP Basic (RFC 6749 §2.3.1, form-encoded before base64) or the body; null when both or neither. */
function clientCredentials(req, form) {
  const header = req.headers.authorization;
  const inBody = form.has("client_secret");
  if (header?.startsWith("Basic ")) {
    if (inBody) return null;
    const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
    const at = decoded.indexOf(":");
    if (at < 0) return null;
    const decode = (part) => {
      try {
        return decodeURIComponent(part.replace(/\+/g, " "));
      } catch {
        return part;
      }
    };
    return { id: decode(decoded.slice(0, at)), secret: decode(decoded.slice(at + 1)), method: "basic" };
  }
  if (inBody) return { id: form.get("client_id"), secret: form.get("client_secret"), method: "body" };
  return null;
}

/** `tamper`: {issuer, expired} — an ID token from another issuer, or one that expired an hour ago. */
function idToken(identity, clientId, nonce, accessToken, tamper = {}) {
  const now = Math.floor(Date.now() / 1000) - (tamper.expired ? 2 * 3600 : 0);
  const header = { alg: "RS256", kid: KEY_ID, typ: "JWT" };
  // at_hash: the left half of SHA-256 of the access token, base64url (OpenID Connect Core §3.1.3.6).
  const atHash = base64url(createHash("sha256").update(accessToken).digest().subarray(0, 16));
  const payload = {
    iss: tamper.issuer ? OTHER_ISSUER : ISSUER,
    azp: clientId,
    aud: clientId,
    sub: identity.sub,
    email: identity.email,
    email_verified: identity.email_verified,
    at_hash: atHash,
    ...(nonce ? { nonce } : {}),
    name: identity.name,
    picture: identity.picture,
    given_name: identity.given_name,
    family_name: identity.family_name,
    iat: now,
    exp: now + 3600,
  };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${signingInput}.${base64url(sign("RSA-SHA256", Buffer.from(signingInput), privateKey))}`;
}

const tokenError = (res, status, error, description) =>
  json(res, status, { error, error_description: description }, { "Cache-Control": "no-store", Pragma: "no-cache" });

async function token(req, res, opts) {
  if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
    return tokenError(res, 400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded.");
  }
  const form = await readForm(req);
  const client = clientCredentials(req, form);
  requests.push({
    path: "/google/token",
    clientAuth: client?.method ?? null,
    body: Object.fromEntries([...form].map(([k, v]) => [k, k === "client_secret" ? "***" : v])),
  });
  const failure = takeFailure("token");
  if (failure) return tokenError(res, failure.status ?? 400, failure.error ?? "invalid_grant", "Injected failure");

  if (!client || client.id !== opts["google-client-id"] || client.secret !== opts["google-client-secret"]) {
    return tokenError(res, 401, "invalid_client", "Unauthorized");
  }
  if (form.get("grant_type") !== "authorization_code")
    return tokenError(res, 400, "unsupported_grant_type", "Invalid grant_type: " + form.get("grant_type"));
  const code = form.get("code");
  const issued = code ? codes.get(code) : undefined;
  if (!issued || issued.clientId !== client.id || issued.used || issued.expiresAt < Date.now()) {
    return tokenError(res, 400, "invalid_grant", "Bad Request");
  }
  issued.used = true; // single use, whatever happens next
  if (form.get("redirect_uri") !== issued.redirectUri) return tokenError(res, 400, "redirect_uri_mismatch", "Bad Request");
  const verifier = form.get("code_verifier");
  if (!verifier) return tokenError(res, 400, "invalid_grant", "Missing code verifier.");
  if (base64url(createHash("sha256").update(verifier).digest()) !== issued.codeChallenge) {
    return tokenError(res, 400, "invalid_grant", "Invalid code verifier.");
  }

  const audience = takeFailure("audience") ? "another-client.apps.googleusercontent.com" : client.id;
  const tamper = { issuer: Boolean(takeFailure("issuer")), expired: Boolean(takeFailure("expired")) };
  const accessToken = `ya29.${randomId(48)}`;
  accessTokens.set(accessToken, { identity: issued.identity, clientId: client.id, expiresAt: Date.now() + ACCESS_TOKEN_TTL_S * 1000 });
  json(
    res,
    200,
    {
      access_token: accessToken,
      expires_in: ACCESS_TOKEN_TTL_S,
      token_type: "Bearer",
      scope: GRANTED_SCOPE,
      id_token: idToken(issued.identity, audience, issued.nonce, accessToken, tamper),
    },
    { "Cache-Control": "no-store", Pragma: "no-cache" },
  );
}

// ——— userinfo endpoint ———

function userinfo(req, res) {
  const header = req.headers.authorization ?? "";
  requests.push({ path: "/google/v1/userinfo", bearer: header.startsWith("Bearer ") });
  const failure = takeFailure("userinfo");
  if (failure) return json(res, failure.status ?? 401, { error: "invalid_request", error_description: "Injected failure" });
  const granted = header.startsWith("Bearer ") ? accessTokens.get(header.slice(7)) : undefined;
  if (!granted || granted.expiresAt < Date.now()) {
    return json(
      res,
      401,
      { error: "invalid_request", error_description: "Invalid Credentials" },
      { "WWW-Authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    );
  }
  const { email, email_verified, name, given_name, family_name, picture } = granted.identity;
  // fail=sub: the answer names another Google account than the ID token did.
  const sub = takeFailure("sub") ? subFor(`outra-conta+${email}`) : granted.identity.sub;
  json(res, 200, { sub, email, email_verified, name, given_name, family_name, picture });
}

const FAILURES = ["token", "userinfo", "audience", "issuer", "expired", "sub"];

function takeFailure(endpoint) {
  const at = failures.findIndex((f) => f.endpoint === endpoint);
  return at < 0 ? null : failures.splice(at, 1)[0];
}

// ——— discovery ———

function discovery(res, origin) {
  json(res, 200, {
    issuer: ISSUER,
    authorization_endpoint: `${origin}/google/o/oauth2/v2/auth`,
    token_endpoint: `${origin}/google/token`,
    userinfo_endpoint: `${origin}/google/v1/userinfo`,
    jwks_uri: `${origin}/google/oauth2/v3/certs`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    scopes_supported: ["openid", "email", "profile"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    code_challenge_methods_supported: ["plain", "S256"],
    grant_types_supported: ["authorization_code", "refresh_token"],
  });
}

/** Handles /google/* and /__google/*; false for anything else. */
export async function handleGoogle(req, res, url, opts) {
  const path = url.pathname;
  if (!path.startsWith("/google/") && !path.startsWith("/__google/")) return false;
  const origin = `http://${req.headers.host ?? `127.0.0.1:${opts.port}`}`;

  if (req.method === "GET" && path === "/google/o/oauth2/v2/auth") authorize(res, url, opts);
  else if (req.method === "POST" && path === "/google/o/oauth2/v2/auth/consent") await consent(req, res);
  else if (req.method === "POST" && path === "/google/token") await token(req, res, opts);
  else if (req.method === "GET" && path === "/google/v1/userinfo") userinfo(req, res);
  else if (req.method === "GET" && path === "/google/.well-known/openid-configuration") discovery(res, origin);
  else if (req.method === "GET" && path === "/google/oauth2/v3/certs")
    json(res, 200, { keys: [{ ...publicKey.export({ format: "jwk" }), kid: KEY_ID, alg: "RS256", use: "sig" }] });
  // ——— test hooks ———
  else if (req.method === "POST" && path === "/__google/next") {
    const endpoint = url.searchParams.get("fail");
    const status = url.searchParams.get("status");
    if (!FAILURES.includes(endpoint)) json(res, 400, { message: `fail must be one of ${FAILURES.join(", ")}` });
    else {
      failures.push({ endpoint, status: status ? Number(status) : undefined, error: url.searchParams.get("error") ?? undefined });
      json(res, 200, { queued: failures.length });
    }
  } else if (req.method === "GET" && path === "/__google/requests") json(res, 200, requests);
  else if (req.method === "GET" && path === "/__google/sub") json(res, 200, { sub: subFor(url.searchParams.get("email") ?? "") });
  else if (req.method === "POST" && path === "/__google/reset") {
    failures.length = 0;
    requests.length = 0;
    json(res, 200, { ok: true });
  } else json(res, 404, { error: "not_found" });
  return true;
}
