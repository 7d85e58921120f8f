// Flash toasts: a short-lived cookie written on redirect and read (then cleared) by the root loader,
// so toasts also appear when JavaScript is off.
import { createCookie, redirect } from "@remix-run/cloudflare";

export type ToastType = "success" | "error" | "info";
export type Toast = { type: ToastType; title: string; description?: string };

const toastCookie = createCookie("nika_toast", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

export async function toastHeader(toast: Toast): Promise<string> {
  return toastCookie.serialize(toast);
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast and returns the header that clears it. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const value = await toastCookie.parse(request.headers.get("Cookie"));
  const headers = new Headers();
  if (!value) return { toast: null, headers };
  headers.append("Set-Cookie", await toastCookie.serialize("", { maxAge: 0 }));
  const toast = typeof value === "object" && typeof value.title === "string" ? (value as Toast) : null;
  return { toast, headers };
}
