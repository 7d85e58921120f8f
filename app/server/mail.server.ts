// One module for e-mail. Every message is written to the outbox table; when a mail API is configured
// (Resend's HTTP protocol: POST {MAIL_API_URL}/emails, Bearer key) it is also sent. Without one, the
// outbox is the only copy — readable in development at /dev/mailbox.
import { eq } from "drizzle-orm";
import { errorMessage } from "~/lib/errors";
import type { Database } from "./db.server";
import type { Env } from "./env";
import { mailOutbox } from "./schema";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  /** Extra headers (e.g. List-Unsubscribe), sent through the API and kept in the outbox. */
  headers?: Record<string, string>;
};
export type MailResult = { id: number; status: "sent" | "failed" | "not_configured" };

type MailEnv = Pick<Env, "MAIL_API_URL" | "MAIL_API_KEY" | "MAIL_FROM">;
const SEND_TIMEOUT_MS = 10_000;

export async function sendMail(db: Database, env: MailEnv, mail: Mail): Promise<MailResult> {
  const configured = Boolean(env.MAIL_API_URL && env.MAIL_API_KEY);
  const [row] = await db
    .insert(mailOutbox)
    .values({
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      kind: mail.kind,
      headers: mail.headers ?? null,
      status: configured ? "failed" : "not_configured",
    })
    .returning({ id: mailOutbox.id });
  if (!configured) return { id: row!.id, status: "not_configured" };

  try {
    const response = await fetch(`${env.MAIL_API_URL!.replace(/\/$/, "")}/emails`, {
      method: "POST",
      headers: { Authorization: `Bearer ${env.MAIL_API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        from: env.MAIL_FROM ?? "Nika <nao-responda@nika.app>",
        to: [mail.to],
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
      }),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`mail API answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    const body = (await response.json().catch(() => ({}))) as { id?: string };
    await db
      .update(mailOutbox)
      .set({ status: "sent", providerMessageId: body.id ?? null })
      .where(eq(mailOutbox.id, row!.id));
    return { id: row!.id, status: "sent" };
  } catch (error) {
    await db
      .update(mailOutbox)
      .set({ status: "failed", error: errorMessage(error).slice(0, 500) })
      .where(eq(mailOutbox.id, row!.id));
    return { id: row!.id, status: "failed" };
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The HTML version of every message: the title, the paragraphs, an optional button with its link spelled out, and an
 * optional small footer link (e.g. to stop a kind of message).
 */
export function mailLayout(
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  footerLink?: { label: string; url: string },
) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("");
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p><p style="font-size:12px;color:#555">Se o botão não funcionar, copie este link: ${escapeHtml(action.url)}</p>`
    : "";
  const footer = footerLink
    ? `<p style="font-size:12px;color:#555"><a href="${escapeHtml(footerLink.url)}" style="color:#555">${escapeHtml(footerLink.label)}</a></p>`
    : "";
  return `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${button}<p style="font-size:12px;color:#555">Equipe Nika</p>${footer}</body></html>`;
}
