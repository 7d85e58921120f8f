// Flash toasts: a short-lived cookie written on redirect and read (then cleared) by the root loader,
// so toasts also appear when JavaScript is off. The cookie is signed with SESSION_SECRET: a toast
// set by anyone else on the domain (forged or tampered) is dropped unseen.
import { createCookie, redirect } from "react-router";
import { isProduction, type Env } from "./env";
import { verifyingSecrets } from "./signed-token.server";

export type ToastType = "success" | "error" | "info";
export type Toast = { type: ToastType; title: string; description?: string };

type Secret = Pick<Env, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS" | "APP_ENV">;

// Secure in production, like the session cookie: a toast names what the learner just did.
const toastCookie = (env: Secret) =>
  createCookie("nika_toast", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction(env),
    maxAge: 60,
    secrets: verifyingSecrets(env),
  });

const TOAST_TYPES: readonly string[] = ["success", "error", "info"] satisfies ToastType[];

export async function toastHeader(env: Secret, toast: Toast): Promise<string> {
  return toastCookie(env).serialize(toast);
}

export async function redirectWithToast(env: Secret, url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(env, toast));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast and returns the header that clears it (any toast cookie, shown or not). */
export async function takeToast(env: Secret, request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const cookieHeader = request.headers.get("Cookie");
  const headers = new Headers();
  if (!cookieHeader?.includes("nika_toast=")) return { toast: null, headers };
  const cookie = toastCookie(env);
  // A signature that is not even base64 makes the parser throw: such a cookie is no toast either.
  const value: unknown = await cookie.parse(cookieHeader).catch(() => null);
  headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return { toast: isToast(value) ? value : null, headers };
}

function isToast(value: unknown): value is Toast {
  if (typeof value !== "object" || value === null) return false;
  const { type, title, description } = value as Record<string, unknown>;
  return (
    typeof type === "string" &&
    TOAST_TYPES.includes(type) &&
    typeof title === "string" &&
    (description === undefined || typeof description === "string")
  );
}
