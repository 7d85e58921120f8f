// Stands in for the spec's "email passed in navigation state" so /email-verification also works
// without JavaScript: a short-lived signed cookie carries the address being verified.
import { createCookie } from "react-router";
import type { Env } from "~/server/env";

const cookieFor = (env: Pick<Env, "SESSION_SECRET">) =>
  createCookie("nika_pending_email", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secrets: [env.SESSION_SECRET],
    maxAge: 24 * 60 * 60,
  });

export const pendingEmailHeader = (env: Pick<Env, "SESSION_SECRET">, email: string) => cookieFor(env).serialize(email);

export async function readPendingEmail(env: Pick<Env, "SESSION_SECRET">, request: Request): Promise<string | null> {
  const value = await cookieFor(env).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.includes("@") ? value : null;
}
