// One module for e-mail. Every message is written to the outbox table; when a mail API is configured
// (Resend's HTTP protocol: POST {MAIL_API_URL}/emails, Bearer key) it is also sent. Without one, the
// outbox is the only copy — readable in development at /dev/mailbox.
import { eq } from "drizzle-orm";
import { errorMessage } from "~/lib/errors";
import type { Database } from "./db.server";
import type { Env } from "./env";
import { mailOutbox } from "./schema";

export type Mail = { to: string; subject: string; text: string; html: string; kind: string };
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
