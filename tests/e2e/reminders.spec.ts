// "Lembrete diário" in the worker: the hourly cron trigger e-mails a learner who opted in, keeps a streak and has done
// nothing today by their usual hour; the dev mailbox shows the mail with its List-Unsubscribe headers; its link stops
// the reminders without signing in (the page's button, or the mail client's one-click POST).
// wrangler dev fires the cron "now" (its /__scheduled takes no time, and miniflare's trigger endpoint does not pass
// through its proxy), so the learner is arranged around the real clock: practised yesterday, usually at 08:30. From
// 22:00 to 08:00 in São Paulo no reminder may go out: then the spec checks that none does, and signs the link itself.
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import type { APIRequestContext } from "@playwright/test";
import { eq } from "drizzle-orm";
import { UNSUBSCRIBE_PURPOSE } from "../../app/features/reminders/reminders.server";
import { saoPauloParts } from "../../app/lib/dates";
import { addDays, saoPauloDay } from "../../app/server/activity.server";
import { activities, users } from "../../app/server/schema";
import { signToken } from "../../app/server/signed-token.server";
import {
  emailsSentTo,
  expect,
  expectAccessible,
  followMailLink,
  test,
  userById,
  waitForHydration,
  withDb,
  type Account,
  type AccountOptions,
  type Role,
} from "./support";

const SESSION_SECRET = parseEnv(readFileSync("tests/e2e/e2e.vars", "utf8")).SESSION_SECRET!;
const SUBJECT = "Sua ofensiva de 4 dias espera por você";

/** Opted in, a streak of 4 up to yesterday, each day's practice at 08:30 in São Paulo (so the usual hour is 8). */
async function learnerWithStreak(createAccount: (role?: Role, options?: AccountOptions) => Promise<Account>) {
  const account = await createAccount("learner", { label: "lembrete" });
  const yesterday = addDays(saoPauloDay(new Date()), -1);
  await withDb(async (db) => {
    await db
      .update(users)
      .set({ reminderOptIn: true, reminderConfirmedEmail: account.email, currentStreak: 4, longestStreak: 4, lastActiveDay: yesterday })
      .where(eq(users.id, account.id));
    await db.insert(activities).values(
      [1, 2, 3, 4].map((ago) => {
        const day = addDays(yesterday, 1 - ago);
        return {
          userId: account.id,
          kind: "lesson_completed" as const,
          ref: `e2e-${day}`,
          day,
          points: 10,
          createdAt: new Date(`${day}T11:30:00Z`),
        };
      }),
    );
  });
  return account;
}

/** Fires the hourly cron; says whether a reminder may go out now (08:00–21:59 in São Paulo). */
async function fireHourlyCron(request: APIRequestContext) {
  const { hour } = saoPauloParts(new Date());
  const fired = await request.get("/__scheduled?cron=0+*+*+*+*");
  expect(await fired.text()).toContain("Ran scheduled event");
  return hour >= 8 && hour <= 21;
}

const signedLink = async (account: Account) =>
  `/lembretes/cancelar?token=${encodeURIComponent(await signToken({ SESSION_SECRET }, UNSUBSCRIBE_PURPOSE, account.id))}`;

test("the hourly cron sends the reminder; its link stops the reminders without signing in", async ({ page, request, createAccount }) => {
  const learner = await learnerWithStreak(createAccount);
  const sendingHours = await fireHourlyCron(request);
  const mailbox = `/dev/mailbox?to=${encodeURIComponent(learner.email)}`;

  if (sendingHours) {
    await expect
      .poll(async () => {
        await page.goto(mailbox);
        return page.getByTestId("mail").count();
      })
      .toBe(1);
    const mail = page.getByTestId("mail");
    await expect(mail.getByRole("heading", { name: SUBJECT })).toBeVisible();
    await expect(mail.getByRole("link", { name: "http://localhost:8797/", exact: true })).toBeVisible();
    const headers = mail.getByTestId("mail-headers");
    await expect(headers).toContainText(/List-Unsubscribe:\s*<http:\/\/localhost:8797\/lembretes\/cancelar\?token=[^>]+>/);
    await expect(headers).toContainText(/List-Unsubscribe-Post:\s*List-Unsubscribe=One-Click/);
    // A second run the same day sends nothing more.
    await fireHourlyCron(request);
    await page.waitForTimeout(1_000);
    await page.goto(mailbox);
    await expect(page.getByTestId("mail")).toHaveCount(1);
    await followMailLink(page, learner.email, "/lembretes/cancelar");
  } else {
    await page.waitForTimeout(2_000);
    await page.goto(mailbox);
    await expect(page.getByText("Nenhum email ainda.")).toBeVisible();
    await page.goto(await signedLink(learner));
  }

  // The link opens a page asking to confirm: opening it changes nothing (link scanners open links too).
  await expect(page.getByRole("heading", { name: "Cancelar lembretes" })).toBeVisible();
  expect((await userById(learner.id)).reminderOptIn).toBe(true);
  if (test.info().project.use.javaScriptEnabled !== false) await waitForHydration(page);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Cancelar lembretes" }).click();
  await expect(page.getByRole("heading", { name: "Lembretes cancelados" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Você não vai mais receber lembretes diários por email.");
  expect((await userById(learner.id)).reminderOptIn).toBe(false);

  // A forged link: refused in pt-BR, nothing changes.
  const forged = await page.goto(`/lembretes/cancelar?token=${learner.id}.AAAA`);
  expect(forged!.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("Link inválido");
});

test("the mail client's one-click POST (RFC 8058) to the List-Unsubscribe URL stops the reminders", async ({
  request,
  createAccount,
}, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no page involved; run once");
  const learner = await learnerWithStreak(createAccount);
  let url: string;
  if (await fireHourlyCron(request)) {
    // What the mail API received (the fake speaks Resend's protocol): the headers travel with the message.
    await expect.poll(async () => (await emailsSentTo(learner.email)).length).toBe(1);
    const [sent] = (await emailsSentTo(learner.email)) as unknown as { headers: Record<string, string> }[];
    expect(sent!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    url = /^<(.+)>$/.exec(sent!.headers["List-Unsubscribe"]!)![1]!;
  } else {
    url = await signedLink(learner);
  }

  const answer = await request.post(url, { form: { "List-Unsubscribe": "One-Click" }, maxRedirects: 0 });
  expect(answer.status()).toBe(200);
  expect((await userById(learner.id)).reminderOptIn).toBe(false);
});
