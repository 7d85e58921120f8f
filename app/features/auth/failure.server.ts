// The spec's messages for an auth form whose action fails unexpectedly ('Erro ao fazer login. Tente
// novamente.' and the like), and the one place that decides which failures show them.
import type { AppLoadContext } from "react-router";
import { isDatabaseUnavailable } from "~/server/db.server";

export const FAILURE_MESSAGES = {
  signin: "Erro ao fazer login. Tente novamente.",
  unexpected: "Erro inesperado. Tente novamente.",
  signup: "Erro ao criar conta. Tente novamente.",
  resetPassword: "Erro ao atualizar senha. Tente novamente.",
  resendVerification: "Erro ao reenviar email de verificação. Tente novamente.",
} as const;

/**
 * What an auth form's action answers when it fails unexpectedly (a statement the database refused, a bug):
 * `answer()` — the form again with the spec's message, status 500 — instead of the error page, so the
 * visitor keeps what they typed. The failure is logged like any 500. Two kinds are rethrown instead:
 * - a Response thrown on purpose (a redirect, a 4xx refusal);
 * - a database that cannot be reached at all: the app-wide 503 screen with Retry-After answers it, as on
 *   every page (entry.server.tsx, db.server.ts) — the page's own loaders need the database too, so without
 *   JavaScript the form could not be shown again anyway.
 * Callers keep their writes in one transaction, so such a failure leaves nothing half-written.
 */
export function answerUnexpected<T>(error: unknown, { request, context }: { request: Request; context: AppLoadContext }, answer: () => T): T {
  if (error instanceof Response || isDatabaseUnavailable(error)) throw error;
  console.error(`[500] ${request.method} ${new URL(request.url).pathname} (${context.requestId})`, error);
  return answer();
}
