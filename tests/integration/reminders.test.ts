// "Lembrete diário" with the clock moved by hand: the hourly job sends one reminder a São Paulo day to a learner who
// opted in, keeps a streak and has done nothing today by their usual hour — never from 22:00 on — and the link it
// carries stops them without signing in (the page's form, the mail client's RFC 8058 one-click POST); forged links or
// links of another account change nothing.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reminderEmail, sendDailyReminders, UNSUBSCRIBE_PURPOSE } from "~/features/reminders/reminders.server";
import { addDays, recordActivity } from "~/server/activity.server";
import type { Database } from "~/server/db.server";
import { mailOutbox, users } from "~/server/schema";
import { signToken } from "~/server/signed-token.server";
import { action, loader } from "../../app/routes/_public+/lembretes.cancelar";
import * as confirmRoute from "../../app/routes/_public+/lembretes.confirmar";
import { freePort, startFakeUpstream } from "./fake-upstream";
import { args, call, contextFor, createTestDb, TEST_ENV } from "./harness";

let db: Database;
const PORT = await freePort();
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
beforeAll(async () => {
  ({ db } = await createTestDb());
  upstream = await startFakeUpstream(PORT, ["--api-key", "mail-key"]);
});
afterAll(() => upstream?.stop());

/** `hour`:`minute` in São Paulo (UTC−3) on `day`. */
const at = (day: string, hour: number, minute = 0) => new Date(Date.parse(`${day}T00:00:00Z`) + ((hour + 3) * 60 + minute) * 60_000);
const run = (now: Date, env: Partial<typeof TEST_ENV> = {}) => sendDailyReminders(db, { ...TEST_ENV, ...env }, now);

let n = 0;
type LearnerState = Partial<typeof users.$inferInsert>;
/** A learner who opted in, with an e-mail confirmed for reminders; `state` sets the streak directly (no activity history). */
async function learner(state: LearnerState = {}) {
  const email = `lembrete${++n}@example.com`;
  const [user] = await db
    .insert(users)
    .values({ name: "Lia Souza", email, emailConfirmedAt: new Date(), reminderOptIn: true, reminderConfirmedEmail: email, ...state })
    .returning();
  return user!;
}
/** A learner who practised at `hour`:30 on each of `days` (their streak and usual hour come from it). */
async function practisedAt(hour: number, days: string[]) {
  const user = await learner();
  for (const day of days) await recordActivity(db, { userId: user.id, kind: "lesson_completed", ref: `${day}-${hour}`, at: at(day, hour, 30) });
  return user;
}
const mailsTo = (email: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, "daily_reminder")));
const stateOf = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!;
const week = (last: string) => [-4, -3, -2, -1, 0].map((d) => addDays(last, d));

describe("an address not confirmed for reminders (issue 47)", () => {
  const asks = (email: string) =>
    db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, "reminder_confirmation")));
  const post = (link: string, form: Record<string, string> = {}) =>
    call(() =>
      confirmRoute.action(
        args(
          new Request(link, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(form),
          }),
          contextFor(db),
        ),
      ),
    );

  it("gets 'Quer receber lembretes?' once and no reminder until its link is followed; then the reminders come", async () => {
    // Signed up with somebody else's address (confirmation off: email_confirmed_at is set at sign-up) and opted in.
    const victim = await learner({ reminderConfirmedEmail: null, currentStreak: 3, lastActiveDay: "2026-09-20" });
    await run(at("2026-09-21", 20));
    await run(at("2026-09-21", 21));
    await run(at("2026-09-22", 20));
    expect(await mailsTo(victim.email)).toHaveLength(0);
    const [ask, ...more] = await asks(victim.email);
    expect(more).toHaveLength(0);
    expect(ask!.subject).toBe("Quer receber lembretes?");
    const link = ask!.textBody.match(/http\S+\/lembretes\/confirmar\?token=\S+/)![0];
    const page = await call(() => confirmRoute.loader(args(new Request(link), contextFor(db))));
    expect(page.data).toMatchObject({ state: "ready" });
    expect((await stateOf(victim.id)).reminderConfirmedEmail).toBeNull(); // opening the link changes nothing
    const forged = await post(link.replace(/token=[^&]+/, (t) => t.slice(0, -2) + "xx"));
    expect(forged.status).toBe(400);
    expect((await post(link)).data).toMatchObject({ state: "confirmed" });
    expect((await stateOf(victim.id)).reminderConfirmedEmail).toBe(victim.email);
    await db.update(users).set({ lastActiveDay: "2026-09-22" }).where(eq(users.id, victim.id));
    await run(at("2026-09-23", 20));
    expect(await mailsTo(victim.email)).toHaveLength(1);
  });

  it("a changed address is asked again, and the old address's link confirms nothing", async () => {
    const kim = await learner({ reminderConfirmedEmail: null, currentStreak: 2, lastActiveDay: "2026-09-20" });
    await run(at("2026-09-21", 20));
    const [ask] = await asks(kim.email);
    const link = ask!.textBody.match(/http\S+\/lembretes\/confirmar\?token=\S+/)![0];
    const moved = `novo-${kim.email}`;
    await db.update(users).set({ email: moved }).where(eq(users.id, kim.id));
    expect((await post(link)).status).toBe(400);
    await run(at("2026-09-21", 21));
    expect(await asks(moved)).toHaveLength(1);
    expect(await mailsTo(moved)).toHaveLength(0);
  });
});

describe("the hourly job", () => {
  it("reminds at the learner's usual hour, once a São Paulo day across runs", async () => {
    const lia = await practisedAt(20, week("2026-09-09")); // a streak of 5, always at 20 h
    await run(at("2026-09-10", 19));
    expect(await mailsTo(lia.email)).toHaveLength(0); // before the usual hour
    await run(at("2026-09-10", 20));
    await run(at("2026-09-10", 21));
    const [mail, ...more] = await mailsTo(lia.email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ subject: "Sua ofensiva de 5 dias espera por você" });
    expect((await stateOf(lia.id)).reminderSentDay).toBe("2026-09-10");
    // Practising after the reminder: the next day's reminder comes again at 20 h.
    await recordActivity(db, { userId: lia.id, kind: "flashcard_game", ref: "after", at: at("2026-09-10", 20, 40) });
    await run(at("2026-09-11", 20));
    expect((await mailsTo(lia.email)).map((m) => m.subject)).toEqual([
      "Sua ofensiva de 5 dias espera por você",
      "Sua ofensiva de 6 dias espera por você",
    ]);
  });

  it("two runs at once send one reminder (the day is claimed before the mail goes out)", async () => {
    const ana = await practisedAt(9, week("2026-09-19"));
    await Promise.all([run(at("2026-09-20", 12)), run(at("2026-09-20", 12)), run(at("2026-09-20", 13))]);
    expect(await mailsTo(ana.email)).toHaveLength(1);
  });

  it("learns the usual hour as the median of each day's first activity, 19 h without history", async () => {
    // First activities at 7, 10, 10, 18 and 18 h (later ones the same day do not count): the median is 10 h.
    const bia = await learner();
    const days = week("2026-10-05");
    const hours = [7, 10, 10, 18, 18];
    for (const [i, day] of days.entries()) {
      await recordActivity(db, { userId: bia.id, kind: "review_game", ref: `first-${day}`, at: at(day, hours[i]!, 5) });
      await recordActivity(db, { userId: bia.id, kind: "chat_exchange", ref: `late-${day}`, at: at(day, 23, 0) });
    }
    await run(at("2026-10-06", 9));
    expect(await mailsTo(bia.email)).toHaveLength(0);
    await run(at("2026-10-06", 10));
    expect(await mailsTo(bia.email)).toHaveLength(1);

    const caio = await learner({ currentStreak: 3, longestStreak: 3, lastActiveDay: "2026-10-05" }); // no activities stored
    await run(at("2026-10-06", 18));
    expect(await mailsTo(caio.email)).toHaveLength(0);
    await run(at("2026-10-06", 19));
    expect(await mailsTo(caio.email)).toHaveLength(1);
  });

  it("never sends from 22:00 on in São Paulo: a late practiser is reminded at 21 h", async () => {
    const night = await practisedAt(23, week("2026-10-14"));
    await run(at("2026-10-15", 22));
    await run(at("2026-10-15", 23));
    expect(await mailsTo(night.email)).toHaveLength(0);
    expect((await stateOf(night.id)).reminderSentDay).toBeNull();
    // The same learner and day at 21 h: due (the usual hour is capped at the last sending hour).
    await run(at("2026-10-15", 21));
    expect(await mailsTo(night.email)).toHaveLength(1);
  });

  it("reminds only opted-in, unblocked, confirmed learners with a standing streak and nothing done today", async () => {
    const today = "2026-11-20";
    const yesterday = addDays(today, -1);
    const streak = { currentStreak: 4, longestStreak: 4, lastActiveDay: yesterday };
    const due = await learner(streak);
    const bridged = await learner({ currentStreak: 9, longestStreak: 9, streakFreezes: 1, lastActiveDay: addDays(today, -2) });
    const skipped = {
      optedOut: await learner({ ...streak, reminderOptIn: false }),
      blocked: await learner({ ...streak, accountType: "blocked" }),
      unconfirmed: await learner({ ...streak, emailConfirmedAt: null }),
      activeToday: await learner({ ...streak, lastActiveDay: today }),
      broken: await learner({ currentStreak: 9, longestStreak: 9, streakFreezes: 1, lastActiveDay: addDays(today, -3) }),
      neverActive: await learner(),
    };
    await run(at(today, 20));
    expect(await mailsTo(due.email)).toHaveLength(1);
    expect(await mailsTo(bridged.email)).toHaveLength(1); // one missed day, covered by the freeze held
    for (const [why, user] of Object.entries(skipped)) expect({ why, mails: (await mailsTo(user.email)).length }).toEqual({ why, mails: 0 });
  });
});

describe("the reminder e-mail", () => {
  it("links to / and to the unsubscribe page, with the RFC 8058 headers, kept in the outbox and sent to the mail API", async () => {
    const env = { MAIL_API_URL: upstream.url, MAIL_API_KEY: "mail-key" };
    const rui = await learner({ currentStreak: 1, longestStreak: 1, lastActiveDay: "2026-12-01" });
    await run(at("2026-12-02", 19), env);
    const [mail] = await mailsTo(rui.email);
    const token = await signToken(TEST_ENV, UNSUBSCRIBE_PURPOSE, rui.id);
    const link = `http://nika.test/lembretes/cancelar?token=${encodeURIComponent(token)}`;
    expect(mail).toMatchObject({ status: "sent", subject: "Sua ofensiva de 1 dia espera por você" });
    expect(mail!.textBody).toContain("Praticar agora: http://nika.test/\n");
    expect(mail!.textBody).toContain(`Para não receber mais lembretes: ${link}`);
    expect(mail!.htmlBody).toContain(`href="${link}"`);
    const headers = { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    expect(mail!.headers).toEqual(headers);
    const received = (await (await fetch(`${upstream.url}/__emails?to=${rui.email}`)).json()) as { subject: string; headers: unknown }[];
    expect(received).toEqual([expect.objectContaining({ subject: "Sua ofensiva de 1 dia espera por você", headers })]);
  });

  it("sends nothing without APP_URL (no link to give)", async () => {
    const eva = await learner({ currentStreak: 2, longestStreak: 2, lastActiveDay: "2026-12-09" });
    await run(at("2026-12-10", 20), { APP_URL: undefined });
    expect(await mailsTo(eva.email)).toHaveLength(0);
  });
});

describe("unsubscribing from the link", () => {
  const page = (token: string) => `http://nika.test/lembretes/cancelar?token=${encodeURIComponent(token)}`;
  const get = (token: string) => call(() => loader(args(new Request(page(token)), contextFor(db))));
  const post = (token: string, body: BodyInit, type = "application/x-www-form-urlencoded") =>
    call(() => action(args(new Request(page(token), { method: "POST", body, headers: type ? { "Content-Type": type } : {} }), contextFor(db))));
  const tokenOf = (id: string, purpose = UNSUBSCRIBE_PURPOSE) => signToken(TEST_ENV, purpose, id);

  it("GET shows the button and changes nothing; the page's form turns reminders off; the next day brings no mail", async () => {
    const lu = await learner({ currentStreak: 6, longestStreak: 6, lastActiveDay: "2027-01-04" });
    await run(at("2027-01-05", 19));
    expect(await mailsTo(lu.email)).toHaveLength(1);
    const token = await tokenOf(lu.id);
    expect(await get(token)).toMatchObject({ status: 200, data: { state: "ready", token } });
    expect((await stateOf(lu.id)).reminderOptIn).toBe(true);
    expect(await post(token, "")).toMatchObject({ status: 200, data: { state: "stopped" } });
    expect((await stateOf(lu.id)).reminderOptIn).toBe(false);
    // The learner practised on the 5th: on the 6th the streak stands, and no reminder comes.
    await db.update(users).set({ currentStreak: 7, lastActiveDay: "2027-01-05" }).where(eq(users.id, lu.id));
    await run(at("2027-01-06", 20));
    expect(await mailsTo(lu.email)).toHaveLength(1);
  });

  it("takes the mail client's one-click POST (List-Unsubscribe=One-Click, url-encoded or multipart)", async () => {
    const one = await learner({ currentStreak: 2, lastActiveDay: "2027-01-04" });
    expect(await post(await tokenOf(one.id), "List-Unsubscribe=One-Click")).toMatchObject({ status: 200, data: { state: "stopped" } });
    expect((await stateOf(one.id)).reminderOptIn).toBe(false);
    const two = await learner({ currentStreak: 2, lastActiveDay: "2027-01-04" });
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    const multipart = new Request("http://x", { method: "POST", body: form });
    expect(await post(await tokenOf(two.id), await multipart.arrayBuffer(), multipart.headers.get("Content-Type")!)).toMatchObject({
      data: { state: "stopped" },
    });
    expect((await stateOf(two.id)).reminderOptIn).toBe(false);
  });

  it("refuses forged links, links of another purpose and another account's id with a 400 in pt-BR; nothing changes", async () => {
    const victim = await learner();
    const other = await learner();
    const otherToken = await tokenOf(other.id);
    const mac = otherToken.split(".")[1]!;
    const forged = [
      "",
      "nada",
      victim.id,
      `${victim.id}.${mac}`, // another account's signature on the victim's id
      `${victim.id}.`,
      `${victim.id}.${mac.slice(0, -2)}AA`,
      await tokenOf(victim.id, "email-change"), // signed, for another purpose
      await signToken({ SESSION_SECRET: "another-secret" }, UNSUBSCRIBE_PURPOSE, victim.id),
    ];
    for (const token of forged) {
      const shown = await get(token);
      expect(shown).toMatchObject({ status: 400, data: { state: "invalid", message: expect.stringContaining("Link inválido") } });
      expect(await post(token, "List-Unsubscribe=One-Click")).toMatchObject({ status: 400, data: { state: "invalid" } });
      expect(await post(token, "")).toMatchObject({ status: 400 });
    }
    expect((await stateOf(victim.id)).reminderOptIn).toBe(true);
    expect((await stateOf(other.id)).reminderOptIn).toBe(true);
  });

  it("refuses a body that is not a form or carries another value (4xx), without changing anything", async () => {
    const kim = await learner();
    const token = await tokenOf(kim.id);
    expect((await post(token, '{"List-Unsubscribe":"One-Click"}', "application/json")).status).toBe(415);
    expect((await post(token, "List-Unsubscribe=Later")).status).toBe(400);
    expect((await stateOf(kim.id)).reminderOptIn).toBe(true);
  });
});

describe("reminderEmail", () => {
  it("says the streak in pt-BR, singular and plural", () => {
    expect(reminderEmail("a@b.c", "Lia", 1, "https://nika.app", "t").subject).toBe("Sua ofensiva de 1 dia espera por você");
    expect(reminderEmail("a@b.c", "Lia", 12, "https://nika.app/", "t").text).toContain("https://nika.app/lembretes/cancelar?token=t");
  });
});
