// /config/app (issue 11): the avatar is one of 1–7 (anything else 400, nothing stored), saved on
// users.avatar with a profile_updates row when it changes, and shown in the chrome and the comments.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { profileUpdates } from "~/features/account/tables";
import { loadLessonComments } from "~/features/courses/comments.server";
import { lessonComments, lessons, modules } from "~/features/courses/tables";
import { loadShell } from "~/features/shell/shell.server";
import { avatarUrl, DEFAULT_AVATAR } from "~/lib/avatars";
import * as app from "~/routes/_app+/config.app";
import type { Database } from "~/server/db.server";
import { users } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, expectRefusal, insertLearner, request, toastOf, type AdminReply } from "./harness";

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

/** The avatar form (its intent; the tab's other forms are in today.test.ts). */
const post = (jar: CookieJar, form: Record<string, string>) =>
  call<AdminReply>(() => app.action(args(request("/config/app", { jar, form: { intent: "avatar", ...form } }), contextFor(db))));

const avatarOf = async (id: string) => (await db.select({ avatar: users.avatar }).from(users).where(eq(users.id, id)))[0]!.avatar;
const updatesOf = (id: string) => db.select().from(profileUpdates).where(eq(profileUpdates.userId, id));

describe("/config/app avatar", () => {
  it("a new account has the second avatar; the page loads it", async () => {
    const { id, jar } = await insertLearner(db);
    expect(DEFAULT_AVATAR).toBe(2);
    expect(await avatarOf(id)).toBe(2);
    const page = await call<{ avatar: number }>(() => app.loader(args(request("/config/app", { jar }), contextFor(db))));
    expect(page.data).toMatchObject({ avatar: 2 });
    expect((await call(() => app.loader(args(request("/config/app"), contextFor(db))))).location).toBe("/signin?redirectTo=%2Fconfig%2Fapp");
  });

  it("saves a choice of 1–7 with a toast and one profile_updates row", async () => {
    const { id, jar } = await insertLearner(db);
    const saved = await post(jar, { avatar: "5" });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/config/app");
    expect(await toastOf(saved)).toEqual({ type: "success", title: "Avatar atualizado!" });
    expect(await avatarOf(id)).toBe(5);
    expect(await updatesOf(id)).toEqual([expect.objectContaining({ userId: id, field: "avatar" })]);

    // The same avatar again is no change: nothing more is recorded.
    expect((await post(jar, { avatar: "5" })).status).toBe(302);
    expect(await updatesOf(id)).toHaveLength(1);

    for (const choice of ["1", "7"]) {
      expect((await post(jar, { avatar: choice })).status).toBe(302);
      expect(await avatarOf(id)).toBe(Number(choice));
    }
    expect(await updatesOf(id)).toHaveLength(3);
  });

  it("refuses anything but 1–7 with 400 and stores nothing", async () => {
    const { id, jar } = await insertLearner(db);
    for (const avatar of ["0", "8", "-1", "2.5", "abc", "", "1e1", "99999999999"]) {
      const refused = await post(jar, { avatar });
      expectRefusal(refused, 400, "invalid_avatar");
      expect(refused.data.result.error?.avatar).toEqual(["Escolha um dos avatares."]);
    }
    expectRefusal(await post(jar, {}), 400, "invalid_avatar");
    expect(await avatarOf(id)).toBe(2);
    expect(await updatesOf(id)).toEqual([]);
  });

  it("anonymous → /signin, blocked → /blocked, a body that is not a form → 415; nothing stored", async () => {
    const anonymous = await post(new CookieJar(), { avatar: "3" });
    expect(anonymous.location).toBe("/signin?redirectTo=%2Fconfig%2Fapp");
    const blocked = await insertLearner(db, { accountType: "blocked" });
    expect((await post(blocked.jar, { avatar: "3" })).location).toBe("/blocked");
    expect(await avatarOf(blocked.id)).toBe(2);

    const { id, jar } = await insertLearner(db);
    const req = new Request("http://nika.test/config/app", {
      method: "POST",
      headers: { Cookie: jar.header(), "Content-Type": "text/plain" },
      body: "avatar=3",
    });
    expect((await call(() => app.action(args(req, contextFor(db))))).status).toBe(415);
    expect(await avatarOf(id)).toBe(2);
    expect(await updatesOf(blocked.id)).toEqual([]);
    expect(await updatesOf(id)).toEqual([]);
  });

  it("the chrome and the comments show the chosen avatar", async () => {
    const { id, jar } = await insertLearner(db, { name: "Bia" });
    await post(jar, { avatar: "6" });
    const shell = await loadShell(request("/", { jar }), contextFor(db));
    expect(shell.user.avatar).toBe(6);
    expect(avatarUrl(shell.user.avatar)).toBe("/avatars/avatar-6.svg");

    const [mod] = await db.insert(modules).values({ title: "Módulo avatar", orderIndex: 90 }).returning();
    const [lesson] = await db.insert(lessons).values({ moduleId: mod!.id, title: "Aula avatar", orderIndex: 0 }).returning();
    await db.insert(lessonComments).values({ lessonId: lesson!.id, userId: id, content: "Olá!" });
    const viewer = await insertLearner(db);
    const comments = await loadLessonComments(db, { id: viewer.id, isAdmin: false } as never, lesson!.id);
    expect(comments.threads[0]).toMatchObject({ authorLabel: "Bia", authorAvatar: 6 });
  });

  it("avatarUrl falls back to the default for anything out of range", () => {
    expect(avatarUrl(3)).toBe("/avatars/avatar-3.svg");
    expect(avatarUrl(0)).toBe("/avatars/avatar-2.svg");
    expect(avatarUrl(8)).toBe("/avatars/avatar-2.svg");
    expect(avatarUrl(null)).toBe("/avatars/avatar-2.svg");
  });
});
