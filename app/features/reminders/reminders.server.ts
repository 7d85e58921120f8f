// "Lembrete diário", the daily habit's reminder: the hourly cron e-mails a learner who opted in, whose streak is still alive and who has
// done nothing today by the hour they usually practise — one a São Paulo day at most, never from 22:00 on. Every
// reminder carries a signed link (and the RFC 8058 headers) that stops them without signing in.
// Reminders go only to an address that asked for them: anyone may sign up with someone else's address (e-mail
// confirmation is off by default), so the first mail to an address not confirmed for reminders is "Quer receber
// lembretes?" with a signed link (/lembretes/confirmar), once per address, and nothing else goes there until it is followed.
import { sql } from "drizzle-orm";
import { saoPauloParts } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { saoPauloDay } from "~/server/activity.server";
import { rowsOf, type Database } from "~/server/db.server";
import type { Env } from "~/server/env";
import { mailLayout, sendMail, type Mail } from "~/server/mail.server";
import { signToken, verifyToken } from "~/server/signed-token.server";

/** Reminders go out from 08:00 to 21:59 in São Paulo: a late practiser is reminded at 21 h, an early one at 8 h. */
export const FIRST_HOUR = 8;
export const LAST_HOUR = 21;
/** The usual hour of a learner with no activity in the last 4 weeks. */
export const DEFAULT_HOUR = 19;
const HISTORY_DAYS = 28;
/** Claimed and sent per run: the rest are still due the next hour. */
const BATCH = 500;
export const UNSUBSCRIBE_PURPOSE = "reminders-unsubscribe";
export const CONFIRM_PURPOSE = "reminders-confirm";

type ReminderEnv = Pick<Env, "APP_URL" | "SESSION_SECRET" | "MAIL_API_URL" | "MAIL_API_KEY" | "MAIL_FROM">;

/**
 * Who may get a reminder today (`u` is the users row): opted in, not blocked, e-mail confirmed, a streak that still
 * stands — nothing done today, and the days missed since the last activity covered by freezes (as streakToday says) —
 * and none sent today yet.
 */
const eligible = (today: string) => sql`
  u.reminder_opt_in and u.account_type <> 'blocked' and u.email_confirmed_at is not null
  and u.reminder_confirmed_email = u.email
  and u.current_streak > 0 and u.last_active_day < ${today}::date
  and ${today}::date - u.last_active_day - 1 <= u.streak_freezes
  and u.reminder_sent_day is distinct from ${today}::date`;

export type ReminderRun = { sent: number; failed: number; asked: number };

/**
 * The hourly job. Claiming the day is the UPDATE itself (`reminder_sent_day` set where it is not today yet, re-checked
 * under the row lock), before the mail goes out: two runs at once never both send, and a failed send is not retried
 * the same day.
 */
export async function sendDailyReminders(db: Database, env: ReminderEnv, now: Date): Promise<ReminderRun> {
  const { hour } = saoPauloParts(now);
  if (hour < FIRST_HOUR || hour > LAST_HOUR) return { sent: 0, failed: 0, asked: 0 };
  if (!env.APP_URL) {
    console.warn("[reminders] APP_URL is not set: no link to put in a reminder, none sent");
    return { sent: 0, failed: 0, asked: 0 };
  }
  const run: ReminderRun = { sent: 0, failed: 0, asked: 0 };
  await askToConfirm(db, env, env.APP_URL, run);
  const today = saoPauloDay(now);
  // The usual hour: the median São Paulo hour of each day's first activity over the last 4 weeks (a day with many
  // activities counts once), kept within the sending hours.
  const result = await db.execute(sql`
    update users u set reminder_sent_day = ${today}::date
    from (
      select u.id from users u
      left join lateral (
        select percentile_disc(0.5) within group (order by d.first_hour) as usual_hour
        from (
          select min(extract(hour from a.created_at at time zone 'America/Sao_Paulo'))::int as first_hour
          from activities a
          where a.user_id = u.id and a.day >= ${today}::date - ${HISTORY_DAYS}::int and a.day < ${today}::date
          group by a.day
        ) d
      ) h on true
      where ${eligible(today)}
        and least(greatest(coalesce(h.usual_hour, ${DEFAULT_HOUR}), ${FIRST_HOUR}), ${LAST_HOUR}) <= ${hour}
      limit ${BATCH}
    ) due
    where u.id = due.id and ${eligible(today)}
    returning u.id, u.email, u.name, u.current_streak`);
  const claimed = rowsOf<{ id: string; email: string; name: string; current_streak: number }>(result);

  for (const learner of claimed) {
    try {
      const token = await signToken(env, UNSUBSCRIBE_PURPOSE, learner.id);
      const mail = reminderEmail(learner.email, learner.name, Number(learner.current_streak), env.APP_URL, token);
      const { status } = await sendMail(db, env, mail);
      run[status === "failed" ? "failed" : "sent"]++;
    } catch (error) {
      run.failed++;
      console.error("[reminders] could not send", learner.id, error);
    }
  }
  return run;
}

/**
 * "Quer receber lembretes?" to every opted-in address not confirmed for reminders and not asked yet — claimed in the
 * UPDATE (the address asked is recorded before the mail goes), so two runs never both ask.
 */
async function askToConfirm(db: Database, env: ReminderEnv, appUrl: string, run: ReminderRun) {
  const asked = rowsOf<{ id: string; email: string; name: string }>(
    await db.execute(sql`
      update users u set reminder_confirmation_sent_email = u.email
      from (
        select id from users
        where reminder_opt_in and account_type <> 'blocked'
          and reminder_confirmed_email is distinct from email and reminder_confirmation_sent_email is distinct from email
        limit ${BATCH}
      ) due
      where u.id = due.id and u.reminder_confirmation_sent_email is distinct from u.email
      returning u.id, u.email, u.name`),
  );
  for (const learner of asked) {
    try {
      const token = await signToken(env, CONFIRM_PURPOSE, `${learner.id}:${learner.email}`);
      const { status } = await sendMail(db, env, confirmRemindersEmail(learner.email, learner.name, appUrl, token));
      if (status === "failed") run.failed++;
      else run.asked++;
    } catch (error) {
      run.failed++;
      console.error("[reminders] could not ask", learner.id, error);
    }
  }
}

export function confirmRemindersUrl(appUrl: string, token: string) {
  return `${appUrl.replace(/\/$/, "")}/lembretes/confirmar?token=${encodeURIComponent(token)}`;
}

export function confirmRemindersEmail(to: string, name: string, appUrl: string, token: string): Mail {
  const subject = "Quer receber lembretes?";
  const paragraphs = [
    `Olá, ${name.trim().split(/\s+/)[0] ?? name}!`,
    "Alguém ativou o Lembrete diário da Nika para este endereço. Se foi você, confirme para receber um email por dia quando ainda não tiver praticado.",
    "Se não foi você, ignore este email: nenhum lembrete será enviado.",
  ];
  const link = confirmRemindersUrl(appUrl, token);
  return {
    to,
    kind: "reminder_confirmation",
    subject,
    text: `${paragraphs.join("\n\n")}\n\nSim, quero receber lembretes: ${link}`,
    html: mailLayout(subject, paragraphs, { label: "Sim, quero receber lembretes", url: link }),
  };
}

/** Confirms reminders for the address the token was signed for, if it is still the account's address. */
export async function confirmReminders(
  db: Database,
  env: Pick<Env, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS">,
  token: string,
): Promise<boolean> {
  const subject = await verifyToken(env, CONFIRM_PURPOSE, token);
  const colon = subject?.indexOf(":") ?? -1;
  if (!subject || colon < 0 || !isUuid(subject.slice(0, colon))) return false;
  const [userId, email] = [subject.slice(0, colon), subject.slice(colon + 1)];
  const updated = rowsOf(
    await db.execute(sql`
      update users set reminder_confirmed_email = email, updated_at = now()
      where id = ${userId} and email = ${email} returning id`),
  );
  return updated.length > 0;
}

/** Whether a confirmation token is valid now (for the page's GET, which only shows the button). */
export async function confirmTokenValid(env: Pick<Env, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS">, token: string): Promise<boolean> {
  const subject = await verifyToken(env, CONFIRM_PURPOSE, token);
  return Boolean(subject && isUuid(subject.split(":")[0]));
}

export function unsubscribeUrl(appUrl: string, token: string) {
  return `${appUrl.replace(/\/$/, "")}/lembretes/cancelar?token=${encodeURIComponent(token)}`;
}

export function reminderEmail(to: string, name: string, streak: number, appUrl: string, token: string): Mail {
  const home = `${appUrl.replace(/\/$/, "")}/`;
  const unsubscribe = unsubscribeUrl(appUrl, token);
  const days = `${streak} ${streak === 1 ? "dia" : "dias"}`;
  const subject = `Sua ofensiva de ${days} espera por você`;
  const paragraphs = [
    `Olá, ${name.trim().split(/\s+/)[0] ?? name}!`,
    `Você ainda não praticou hoje. Alguns minutos com a Nika mantêm a sua ofensiva de ${days}.`,
  ];
  return {
    to,
    kind: "daily_reminder",
    subject,
    text: `${paragraphs.join("\n\n")}\n\nPraticar agora: ${home}\n\nPara não receber mais lembretes: ${unsubscribe}`,
    html: mailLayout(
      subject,
      paragraphs,
      { label: "Praticar agora", url: home },
      { label: "Não quero mais receber lembretes", url: unsubscribe },
    ),
    // RFC 8058: the mail client offers "unsubscribe" and POSTs List-Unsubscribe=One-Click to the link itself.
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** The learner an unsubscribe token was signed for, or null (forged, tampered, for another purpose). */
export async function unsubscribeTokenUser(env: Pick<Env, "SESSION_SECRET">, token: string): Promise<string | null> {
  const userId = await verifyToken(env, UNSUBSCRIBE_PURPOSE, token);
  return isUuid(userId) ? userId : null;
}

/** Turns the learner's reminders off. False when the token is not a valid unsubscribe token (nothing changes). */
export async function stopReminders(db: Database, env: Pick<Env, "SESSION_SECRET">, token: string): Promise<boolean> {
  const userId = await unsubscribeTokenUser(env, token);
  if (!userId) return false;
  await db.execute(sql`update users set reminder_opt_in = false, updated_at = now() where id = ${userId} and reminder_opt_in`);
  return true;
}
