// Google sign-in (decision 0017): the trip to Google and back (/auth/google, /auth/google/callback) and the
// account rules behind it — a Google account is found by its link (`sub`), else linked to the account with
// its verified e-mail, else a new account is created (when sign-up is on). Google's protocol side (the
// remix-auth-oauth2 strategy and the checks of its answers) is google-oidc.server.ts.
import { and, eq, isNull } from "drizzle-orm";
import { createCookie, redirect, type AppLoadContext } from "react-router";
import { createSession, destroyAllSessions, forgetUserSessions, safeRedirect } from "~/server/auth.server";
import { creditPeriod, grantSignupCredits, monthlyAllowance } from "~/server/credits.server";
import { isProduction, type Env } from "~/server/env";
import { getFlags, isFeatureEnabled } from "~/server/flags.server";
import { sendMail } from "~/server/mail.server";
import { notFound } from "~/server/request.server";
import { users } from "~/server/schema";
import { redirectWithToast, type Toast } from "~/server/toast.server";
import { createAuthenticator } from "./authenticator.server";
import { welcomeEmail } from "./emails.server";
import { GOOGLE_STATE_COOKIE, googleSettings, type GoogleIdentity } from "./google-oidc.server";
import { NAME_MAX } from "./schemas";
import { oauthAccounts, passwordCredentials } from "./tables";

/** Spec §8: the one message of every Google failure. */
export const GOOGLE_ERROR_MESSAGE = "Erro ao fazer login com Google. Tente novamente.";
export const GOOGLE_SIGNUP_DISABLED = "A criação de novas contas está desativada no momento.";
export const GOOGLE_WHATSAPP_PATH = "/auth/google/whatsapp";

// ——— availability ———

/** Configured (client id and secret) and the flag enable_account_creation_on_signin on. */
export async function googleSignInAvailable(context: AppLoadContext): Promise<boolean> {
  return googleSettings(context.cloudflare.env) !== null && (await isFeatureEnabled(context, "enable_account_creation_on_signin"));
}

/** The Google routes do not exist while Google sign-in is unavailable: 404. */
export async function requireGoogleSignIn(context: AppLoadContext) {
  if (!(await googleSignInAvailable(context))) throw notFound("Página não encontrada");
}

// ——— the trip to Google and back ———

/** Where to go after signing in, kept (signed, 10 minutes) while the browser is at Google. */
const returnCookie = (env: Env) =>
  createCookie("nika_google_return", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction(env),
    secrets: [env.SESSION_SECRET],
    maxAge: 10 * 60,
  });

/** The redirect to Google's consent page, with the strategy's state/PKCE cookie and our return path. */
export async function startGoogleSignIn(context: AppLoadContext, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "");
  // Only the cookies reach the strategy: a `state` in this URL would make it treat the visit as Google's answer.
  const start = new Request(url.origin + url.pathname, { headers: { Cookie: request.headers.get("Cookie") ?? "" } });
  try {
    await createAuthenticator(context, request).authenticate("google", start);
  } catch (thrown) {
    if (thrown instanceof Response && thrown.headers.has("Location")) {
      const headers = new Headers(thrown.headers);
      headers.append("Set-Cookie", await returnCookie(context.cloudflare.env).serialize(redirectTo));
      headers.set("Cache-Control", "no-store");
      return new Response(null, { status: 302, headers });
    }
    throw thrown;
  }
  throw new Error("The Google strategy did not redirect to Google");
}

/**
 * Google's answer: the strategy checks `state` against its cookie and redeems the code (PKCE), the account
 * rules pick the account, and the browser gets a session — or `/signin` with the one error message.
 */
export async function completeGoogleSignIn(context: AppLoadContext, request: Request): Promise<Response> {
  const env = context.cloudflare.env;
  const url = new URL(request.url);
  const state = url.searchParams.get("state");
  const headers = new Headers();
  for (const line of await spentCookies(env, request, state)) headers.append("Set-Cookie", line);
  const refuse = (reason: string, toast: Toast = { type: "error", title: GOOGLE_ERROR_MESSAGE }) => {
    console.warn(`[google] sign-in refused: ${reason}`);
    return redirectWithToast(env, "/signin", toast, { headers });
  };

  // Without a state the strategy would start a new trip to Google instead of failing.
  if (!state) return refuse("no state in the callback");
  let identity: GoogleIdentity;
  try {
    identity = await createAuthenticator(context, request).authenticate("google", request);
  } catch (error) {
    if (error instanceof Response) return refuse(`unexpected redirect to ${error.headers.get("Location")}`);
    return refuse(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }

  const outcome = await signInWithGoogle(context, identity);
  if (outcome.status === "unverified_email") return refuse("the Google e-mail is not verified");
  if (outcome.status === "signup_disabled") {
    return refuse("sign-up is disabled", { type: "error", title: GOOGLE_ERROR_MESSAGE, description: GOOGLE_SIGNUP_DISABLED });
  }

  headers.append("Set-Cookie", await createSession(context, outcome.userId, request));
  if (outcome.blocked) return redirect("/blocked", { headers });
  const destination = safeRedirect(await returnCookie(env).parse(request.headers.get("Cookie")));
  const next = outcome.askWhatsapp ? `${GOOGLE_WHATSAPP_PATH}?redirectTo=${encodeURIComponent(destination)}` : destination;
  return redirectWithToast(env, next, { type: "success", title: "Login realizado com sucesso!" }, { headers });
}

/**
 * Set-Cookie lines that end what this answer uses up: the return path and the strategy's cookie of this
 * `state` (so the callback URL cannot be replayed; another tab's attempt keeps its own cookie).
 */
async function spentCookies(env: Env, request: Request, state: string | null): Promise<string[]> {
  const lines = [await returnCookie(env).serialize("", { maxAge: 0 })];
  const secure = isProduction(env) ? "; Secure" : "";
  for (const pair of (request.headers.get("Cookie") ?? "").split(";")) {
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim();
    if (at < 0 || !name.startsWith(`${GOOGLE_STATE_COOKIE}:`)) continue;
    // The strategy's value: `state=<state>&<state>=<verifier>` (quoted only if it held a space or ;).
    const value = pair
      .slice(at + 1)
      .trim()
      .replace(/^"|"$/g, "");
    if (state && new URLSearchParams(value).get("state") === state) {
      lines.push(`${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`);
    }
  }
  return lines;
}

// ——— the account rules ———

export type GoogleSignInResult =
  | {
      status: "signed_in";
      userId: string;
      blocked: boolean;
      /** How the account was found: its link, its verified e-mail (link recorded now), or created now. */
      via: "link" | "email" | "created";
      /** A first Google sign-in into an account without a WhatsApp number: ask for it once. */
      askWhatsapp: boolean;
    }
  | { status: "unverified_email" }
  | { status: "signup_disabled" };

/** Google's name, cleaned like a typed one (no control characters, spaces collapsed, at most 100); the e-mail's name when empty. */
function accountName(identity: GoogleIdentity): string {
  const name = identity.name
    // eslint-disable-next-line no-control-regex -- dropping control characters is the point
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, NAME_MAX)
    .trim();
  return name || identity.email.split("@")[0]!.slice(0, NAME_MAX);
}

/**
 * Finds, links or creates the account of a Google identity:
 *  1. an unverified Google e-mail is refused (whatever else matches);
 *  2. the link by `sub` (oauth_accounts), which survives an e-mail change at Google;
 *  3. the account with the same e-mail: the link is recorded. If that account had never confirmed its
 *     e-mail, whoever set its password never proved they own the address — Google just proved someone
 *     else might: the e-mail is confirmed, the password and the other sessions are dropped (a
 *     "pre-hijacked" account stays with the address's owner; "Esqueceu a senha?" sets a new one);
 *  4. a new account (Google's name, e-mail confirmed, no password, this month's credits like sign-up),
 *     unless signup_enabled is off.
 */
export async function signInWithGoogle(context: AppLoadContext, identity: GoogleIdentity, attempt = 1): Promise<GoogleSignInResult> {
  const { db } = context;
  if (!identity.emailVerified) return { status: "unverified_email" };
  const email = identity.email.trim().toLowerCase();
  const now = new Date();

  const [linked] = await db
    .select({ linkId: oauthAccounts.id, userId: users.id, accountType: users.accountType })
    .from(oauthAccounts)
    .innerJoin(users, eq(users.id, oauthAccounts.userId))
    .where(and(eq(oauthAccounts.provider, "google"), eq(oauthAccounts.subject, identity.sub)));
  if (linked) {
    await db.update(oauthAccounts).set({ email, lastUsedAt: now }).where(eq(oauthAccounts.id, linked.linkId));
    return { status: "signed_in", userId: linked.userId, blocked: linked.accountType === "blocked", via: "link", askWhatsapp: false };
  }

  const [existing] = await db
    .select({ id: users.id, accountType: users.accountType, phoneNumber: users.phoneNumber, emailConfirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.email, email));
  if (existing) {
    const recorded = await db.transaction(async (tx) => {
      const [link] = await tx
        .insert(oauthAccounts)
        .values({ userId: existing.id, provider: "google", subject: identity.sub, email })
        .onConflictDoNothing()
        .returning({ id: oauthAccounts.id });
      if (!link) return false; // a parallel callback of the same Google account linked it first
      if (!existing.emailConfirmedAt) {
        await tx
          .update(users)
          .set({ emailConfirmedAt: now, updatedAt: now })
          .where(and(eq(users.id, existing.id), isNull(users.emailConfirmedAt)));
        await tx.delete(passwordCredentials).where(eq(passwordCredentials.userId, existing.id));
        await destroyAllSessions(tx, existing.id);
      }
      return true;
    });
    if (!recorded && attempt === 1) return signInWithGoogle(context, identity, 2);
    if (recorded) forgetUserSessions(context, existing.id);
    return {
      status: "signed_in",
      userId: existing.id,
      blocked: existing.accountType === "blocked",
      via: "email",
      askWhatsapp: recorded && !existing.phoneNumber,
    };
  }

  const flags = await getFlags(context);
  if (!flags.signup_enabled) return { status: "signup_disabled" };
  const allowance = monthlyAllowance(context.cloudflare.env);
  const name = accountName(identity);
  const userId = await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ name, email, monthlyCredits: allowance, creditsPeriod: creditPeriod(now), emailConfirmedAt: now })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) return null; // an account with this e-mail appeared meanwhile
    await grantSignupCredits(tx, user.id, allowance);
    await tx.insert(oauthAccounts).values({ userId: user.id, provider: "google", subject: identity.sub, email });
    return user.id;
  });
  if (!userId) {
    if (attempt === 1) return signInWithGoogle(context, identity, 2);
    throw new Error("Google sign-in: the account changed twice while it was being created");
  }
  // The welcome e-mail is a courtesy: its failure never fails the sign-in.
  await sendMail(db, context.cloudflare.env, welcomeEmail(email, name)).catch(() => {});
  return { status: "signed_in", userId, blocked: false, via: "created", askWhatsapp: true };
}

// ——— the WhatsApp question after the first Google sign-in ———

/** Sets the WhatsApp number of an account that has none (never overwrites one). True when it was set. */
export async function saveMissingWhatsapp(context: AppLoadContext, userId: string, whatsapp: string): Promise<boolean> {
  const updated = await context.db
    .update(users)
    .set({ phoneNumber: whatsapp, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.phoneNumber)))
    .returning({ id: users.id });
  return updated.length === 1;
}
