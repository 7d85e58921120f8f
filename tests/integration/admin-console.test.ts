// The admin console (issue 11): toggles, analytics, user search and the actions on a user — each
// server-enforced (learner → 403 with nothing stored, anonymous → sign-in) and audited.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileUpdates } from "~/features/account/tables";
import { adminAuditLog } from "~/features/admin/tables";
import { chatConversations, chatMessages } from "~/features/conversation/tables";
import * as root from "~/root";
import * as flashcards from "~/routes/_app+/_labs+/flashcard-v2._index";
import * as appLayout from "~/routes/_app+/_layout";
import * as adminLayout from "~/routes/_app+/admin";
import * as adminIndex from "~/routes/_app+/admin._index";
import * as adminUser from "~/routes/_app+/admin.users.$userId";
import * as adminUsers from "~/routes/_app+/admin.users._index";
import * as configAdmin from "~/routes/_app+/config.admin";
import { createSession, getSessionUser } from "~/server/auth.server";
import { adjustCredits, creditPeriod } from "~/server/credits.server";
import { getFlags } from "~/server/flags.server";
import { creditLedger, mailOutbox, sessions, userRoles, users } from "~/server/schema";
import { DEV_ACCOUNTS, seedDevelopment } from "../../scripts/lib/seed";
import { args, call, contextFor, CookieJar, createTestDb, expectRefusal, insertLearner, request, toastOf, type AdminReply } from "./harness";

let world: Awaited<ReturnType<typeof createWorld>>;

async function createWorld() {
  const test = await createTestDb();
  await seedDevelopment(test.db, { allowance: 50 });
  // Every request of this world is served by one isolate (one env object), as in `wrangler dev`: flags the
  // isolate keeps (flags.server.ts) must not hide an admin's toggle from the next request.
  const isolate = contextFor(test.db).cloudflare.env;
  const ctx = () => {
    const context = contextFor(test.db);
    context.cloudflare.env = isolate;
    return context;
  };
  const signInAs = async (email: string) => {
    const [user] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const jar = new CookieJar();
    jar.absorb(new Headers({ "Set-Cookie": await createSession(ctx(), user!.id, request("/")) }));
    return { id: user!.id, jar };
  };
  const admin = await signInAs(DEV_ACCOUNTS.admin.email);
  const learner = await signInAs(DEV_ACCOUNTS.learner.email);
  return { ...test, ctx, admin, learner, anonymous: new CookieJar() };
}

beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => {
  await world.client.close();
});

/** Every table's row count and a hash of its rows: a refused request must change none. */
async function fingerprint() {
  const result = await world.client.query<{ t: string; n: number; h: string }>(`
    select 'users' t, count(*)::int n, md5(coalesce(string_agg(u::text, ',' order by id), '')) h from users u
    union all select 'app_config', count(*)::int, md5(coalesce(string_agg(c::text, ',' order by id), '')) from app_config c
    union all select 'user_roles', count(*)::int, md5(coalesce(string_agg(r::text, ',' order by id), '')) from user_roles r
    union all select 'credit_ledger', count(*)::int, md5(coalesce(string_agg(l::text, ',' order by id), '')) from credit_ledger l
    union all select 'admin_audit_log', count(*)::int, md5(coalesce(string_agg(a::text, ',' order by id), '')) from admin_audit_log a
    union all select 'mail_outbox', count(*)::int, md5(coalesce(string_agg(m::text, ',' order by id), '')) from mail_outbox m
    union all select 'sessions', count(*)::int, md5(coalesce(string_agg(s.id || s.expires_at::text, ',' order by s.id), '')) from sessions s`);
  return result.rows;
}

const post = (path: string, jar: CookieJar, form: Record<string, string>) => request(path, { jar, form });

const userAction = (userId: string, jar: CookieJar, form: Record<string, string>) =>
  call<AdminReply>(() => adminUser.action(args(post(`/admin/users/${userId}`, jar, form), world.ctx(), { userId })));

const configAction = (jar: CookieJar, form: Record<string, string>, route: typeof adminIndex | typeof configAdmin = adminIndex) =>
  call<AdminReply>(() => route.action(args(post("/admin?index", jar, form), world.ctx())));

const auditRows = (userId: string) =>
  world.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, userId)).orderBy(adminAuditLog.id);

describe("access: learners and anonymous visitors", () => {
  it("learners are sent to / from every admin page; anonymous visitors to sign-in", async () => {
    const target = await insertLearner(world.db);
    const pages = [
      () => adminLayout.loader(args(request("/admin", { jar: world.learner.jar }), world.ctx())),
      () => adminIndex.loader(args(request("/admin", { jar: world.learner.jar }), world.ctx())),
      () => configAdmin.loader(args(request("/config/admin", { jar: world.learner.jar }), world.ctx())),
      () => adminUsers.loader(args(request("/admin/users", { jar: world.learner.jar }), world.ctx())),
      () => adminUser.loader(args(request(`/admin/users/${target.id}`, { jar: world.learner.jar }), world.ctx(), { userId: target.id })),
    ];
    for (const page of pages) {
      const outcome = await call(page);
      expect(outcome.status).toBe(302);
      expect(outcome.location).toBe("/");
    }
    const anonymous = await call(() => adminIndex.loader(args(request("/admin"), world.ctx())));
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe("/signin?redirectTo=%2Fadmin");
  });

  it("every admin action answers a learner 403 and stores nothing; anonymous → sign-in", async () => {
    const target = await insertLearner(world.db, { credits: 3 });
    const before = await fingerprint();
    const forms: Record<string, string>[] = [
      { intent: "block" },
      { intent: "unblock" },
      { intent: "make_admin" },
      { intent: "remove_admin" },
      { intent: "resend_confirmation" },
      { intent: "credits", amount: "5", reason: "presente" },
    ];
    for (const form of forms) {
      const outcome = await userAction(target.id, world.learner.jar, form);
      expect(outcome.status, form.intent).toBe(403);
      expect(outcome.data).toMatchObject({ code: "FORBIDDEN" });
      const anonymous = await userAction(target.id, world.anonymous, form);
      expect(anonymous.status).toBe(302);
      expect(anonymous.location).toMatch(/^\/signin/);
    }
    for (const route of [adminIndex, configAdmin]) {
      const outcome = await configAction(world.learner.jar, { key: "feature_flashcards", value: "false" }, route);
      expect(outcome.status).toBe(403);
    }
    expect(await fingerprint()).toEqual(before);
  });

  it("a malformed user id is a 404 before anything else; an unknown one is a 404 too", async () => {
    for (const jar of [world.admin.jar, world.learner.jar, world.anonymous]) {
      const outcome = await call(() => adminUser.loader(args(request("/admin/users/nope", { jar }), world.ctx(), { userId: "nope" })));
      expect(outcome.status).toBe(404);
      const posted = await call(() =>
        adminUser.action(args(post("/admin/users/nope", jar, { intent: "block" }), world.ctx(), { userId: "nope" })),
      );
      expect(posted.status).toBe(404);
    }
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(
      (await call(() => adminUser.loader(args(request(`/admin/users/${missing}`, { jar: world.admin.jar }), world.ctx(), { userId: missing }))))
        .status,
    ).toBe(404);
    const before = await fingerprint();
    const forms: Record<string, string>[] = [
      { intent: "block" },
      { intent: "make_admin" },
      { intent: "credits", amount: "5", reason: "presente" },
      { intent: "resend_confirmation" },
    ];
    for (const form of forms) {
      expectRefusal(await userAction(missing, world.admin.jar, form), 404, "not_found", ["Usuário não encontrado"]);
    }
    expect(await fingerprint()).toEqual(before);
  });
});

describe("toggles", () => {
  it("list every app_config row ordered by key, with its description", async () => {
    const outcome = await call<Awaited<ReturnType<typeof adminIndex.loader>>>(() =>
      adminIndex.loader(args(request("/admin", { jar: world.admin.jar }), world.ctx())),
    );
    const keys = outcome.data.config.map((row) => row.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain("feature_flashcards");
    expect(outcome.data.config.every((row) => row.description.length > 0)).toBe(true);
    expect(outcome.data.config.find((row) => row.key === "app_name")?.isText).toBe(true);
  });

  it("turn a feature off and on: the very next request of a learner sees it (page and action)", async () => {
    for (const route of [adminIndex, configAdmin]) {
      const off = await configAction(world.admin.jar, { key: "feature_flashcards", value: "false" }, route);
      expect(off.status).toBe(200);
      expect(off.data.code).toBeNull();
      expect((await getFlags(world.ctx())).feature_flashcards).toBe(false);
      const page = await call(() => flashcards.loader(args(request("/flashcard-v2", { jar: world.learner.jar }), world.ctx())));
      expect(page.status).toBe(403);
      expect(page.data).toMatchObject({ featureDisabled: true });
      const started = await call(() =>
        flashcards.action(args(post("/flashcard-v2", world.learner.jar, { intent: "start", category: "animals" }), world.ctx())),
      );
      expect(started.status).toBe(403);
      const on = await configAction(world.admin.jar, { key: "feature_flashcards", value: "true" }, route);
      expect(on.status).toBe(200);
      expect((await getFlags(world.ctx())).feature_flashcards).toBe(true);
      const back = await call(() => flashcards.loader(args(request("/flashcard-v2", { jar: world.learner.jar }), world.ctx())));
      expect(back.status).toBe(200);
    }
  });

  it("app_name is text; refusals answer 'Falha ao atualizar configuração. Tente novamente.' and change nothing", async () => {
    const saved = await configAction(world.admin.jar, { key: "app_name", text: "  Nika Beta  " });
    expect(saved.status).toBe(200);
    expect((await getFlags(world.ctx())).app_name).toBe("Nika Beta");
    await configAction(world.admin.jar, { key: "app_name", text: "Nika" });
    const before = await fingerprint();
    expectRefusal(await configAction(world.admin.jar, { key: "no_such_key", value: "true" }), 404, "unknown_config", [
      "Falha ao atualizar configuração. Tente novamente.",
      "Configuração não encontrada.",
    ]);
    expectRefusal(await configAction(world.admin.jar, { key: "feature_flashcards", value: "maybe" }), 400, "invalid_config", [
      "Falha ao atualizar configuração. Tente novamente.",
    ]);
    expectRefusal(await configAction(world.admin.jar, { key: "feature_flashcards" }), 400, "invalid_config");
    expectRefusal(await configAction(world.admin.jar, { key: "app_name", text: "   " }), 400, "invalid_config");
    expect(await fingerprint()).toEqual(before);
  });
});

describe("analytics", () => {
  it("count users, active users, profile updates and usage in SQL, on arranged data", async () => {
    const { db } = await createTestDb();
    const now = new Date("2026-11-20T15:00:00Z");
    const days = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const insert = async (name: string, createdAt: Date, lastSeenAt: Date | null) =>
      (
        await db
          .insert(users)
          .values({ name, email: `${name}@example.com`, createdAt, lastSeenAt, creditsPeriod: creditPeriod(now) })
          .returning()
      )[0]!;
    const a = await insert("a", days(40), days(2)); // active in 7 and 30 days
    const b = await insert("b", days(20), days(10)); // active in 30 only
    const c = await insert("c", days(1), null); // a session seen 3 days ago
    await insert("d", now, null); // never seen
    await db.insert(sessions).values({ id: "s-c", userId: c.id, expiresAt: days(-20), lastSeenAt: days(3), createdAt: days(3) });
    await db.insert(sessions).values({ id: "s-old", userId: b.id, expiresAt: days(-20), lastSeenAt: days(45), createdAt: days(45) });
    await db.insert(profileUpdates).values([
      { userId: a.id, field: "name", createdAt: days(1) },
      { userId: a.id, field: "avatar", createdAt: days(10) },
      { userId: b.id, field: "email", createdAt: days(40) },
    ]);
    const [conversation] = await db.insert(chatConversations).values({ userId: a.id, mode: "english" }).returning();
    await db.insert(chatMessages).values([
      { conversationId: conversation!.id, role: "user", text: "hi", createdAt: days(1) },
      { conversationId: conversation!.id, role: "nika", text: "hello", createdAt: days(1) },
      { conversationId: conversation!.id, role: "user", text: "old", createdAt: days(31) },
    ]);
    await db.update(users).set({ monthlyCredits: 10 }).where(eq(users.id, a.id));
    await adjustCredits(db, a.id, -3, "chat_message");
    await adjustCredits(db, a.id, -2, "flashcards");
    await adjustCredits(db, a.id, 1, "refund:provider_failed");
    await adjustCredits(db, a.id, -4, "admin_removal:teste");
    await db.update(creditLedger).set({ createdAt: days(1) });
    const { loadAnalytics } = await import("~/features/admin/console.server");
    const analytics = await loadAnalytics(db, now);
    expect(analytics).toMatchObject({
      totalUsers: 4,
      activeUsers30Days: 3,
      activeUsers7Days: 2,
      profileUpdates30Days: 2,
      profileUpdates7Days: 1,
      messagesToNika30Days: 1,
      refunds30Days: 1,
    });
    expect(analytics.creditsSpent30Days).toEqual([
      { feature: "chat_message", credits: 3 },
      { feature: "flashcards", credits: 2 },
    ]);
    expect(analytics.signupsPerDay).toHaveLength(30);
    expect(analytics.signupsPerDay.at(-1)).toEqual({ day: "2026-11-20", count: 1 });
    expect(analytics.signupsPerDay.reduce((sum, p) => sum + p.count, 0)).toBe(3); // a (40 days) is outside
  });

  it("/admin answers in a bounded number of statements (root, shell, frame and console; one load context)", async () => {
    const context = contextFor(world.db);
    const jar = world.admin.jar;
    // Warm: the session's hourly touch and the month's renewal are not part of every request.
    await getSessionUser(request("/admin", { jar }), contextFor(world.db));
    const before = world.queryCount();
    await Promise.all([
      call(() => root.loader(args(request("/admin", { jar }), context))),
      call(() => appLayout.loader(args(request("/admin", { jar }), context))),
      call(() => adminLayout.loader(args(request("/admin", { jar }), context))),
      call(() => adminIndex.loader(args(request("/admin", { jar }), context))),
    ]);
    const statements = world.queryCount() - before;
    expect(statements).toBeLessThanOrEqual(4); // session, flags (the shell), app_config, analytics
    console.info(`/admin: ${statements} statements`);
  });
});

describe("users", () => {
  it("search by name or e-mail, paginated, works as a GET", async () => {
    for (let i = 0; i < 22; i++) await insertLearner(world.db, { name: `Paginada ${i}` });
    const search = (query: string) =>
      call<Awaited<ReturnType<typeof adminUsers.loader>>>(() =>
        adminUsers.loader(args(request(`/admin/users?${query}`, { jar: world.admin.jar }), world.ctx())),
      );
    const first = await search("q=paginada");
    expect(first.data).toMatchObject({ q: "paginada", total: 22, page: 1, pages: 2 });
    expect(first.data.items).toHaveLength(20);
    const second = await search("q=PAGINADA&page=2");
    expect(second.data.items).toHaveLength(2);
    const byEmail = await search(`q=${encodeURIComponent(DEV_ACCOUNTS.learner.email)}`);
    expect(byEmail.data.items.map((u) => u.email)).toEqual([DEV_ACCOUNTS.learner.email]);
    expect((await search("q=%25")).data.total).toBe(0); // "%" is a literal character
    expect((await search("page=abc")).data.page).toBe(1);
  });

  it("a user's page shows profile, statistics, credits, ledger and audit", async () => {
    const outcome = await call<Awaited<ReturnType<typeof adminUser.loader>>>(() =>
      adminUser.loader(args(request(`/admin/users/${world.learner.id}`, { jar: world.admin.jar }), world.ctx(), { userId: world.learner.id })),
    );
    expect(outcome.status).toBe(200);
    expect(outcome.data.user).toMatchObject({ email: DEV_ACCOUNTS.learner.email, isAdmin: false, accountType: "free" });
    expect(Array.isArray(outcome.data.ledger)).toBe(true);
    expect(outcome.data.self).toBe(false);
  });

  it("blocking ends the user's sessions at once (they see /blocked), is audited, and unblocking deletes them", async () => {
    const target = await insertLearner(world.db);
    const otherJar = new CookieJar();
    otherJar.absorb(new Headers({ "Set-Cookie": await createSession(world.ctx(), target.id, request("/")) }));
    const blocked = await userAction(target.id, world.admin.jar, { intent: "block" });
    expect(blocked.status).toBe(302);
    expect(blocked.location).toBe(`/admin/users/${target.id}`);
    expect(await toastOf(blocked)).toMatchObject({ type: "success", title: "Usuário bloqueado" });
    for (const jar of [target.jar, otherJar]) {
      const page = await call(() => flashcards.loader(args(request("/flashcard-v2", { jar }), world.ctx())));
      expect(page.location).toBe("/blocked");
    }
    const left = await world.db.select().from(sessions).where(eq(sessions.userId, target.id));
    expect(left).toHaveLength(2);
    expect(left.every((s) => s.expiresAt.getTime() <= Date.now() + 60 * 60_000 + 5_000)).toBe(true);
    expectRefusal(await userAction(target.id, world.admin.jar, { intent: "block" }), 409, "already_blocked");
    const unblocked = await userAction(target.id, world.admin.jar, { intent: "unblock" });
    expect(unblocked.status).toBe(302);
    expect(await world.db.select().from(sessions).where(eq(sessions.userId, target.id))).toHaveLength(0);
    const audit = await auditRows(target.id);
    expect(audit.map((row) => [row.action, row.adminId, row.before, row.after])).toEqual([
      ["block", world.admin.id, { accountType: "free" }, { accountType: "blocked", sessionsEnded: 2 }],
      ["unblock", world.admin.id, { accountType: "blocked" }, { accountType: "free", sessionsEnded: 2 }],
    ]);
    expectRefusal(await userAction(world.admin.id, world.admin.jar, { intent: "block" }), 409, "self_block");
  });

  it("credits: grants and removals are ledger entries with the reason, never below zero", async () => {
    const target = await insertLearner(world.db, { credits: 3 });
    const granted = await userAction(target.id, world.admin.jar, { intent: "credits", amount: "5", reason: "Bônus de boas-vindas" });
    expect(granted.status).toBe(302);
    const balance = async () => (await world.db.select({ n: users.monthlyCredits }).from(users).where(eq(users.id, target.id)))[0]!.n;
    expect(await balance()).toBe(8);
    const before = await fingerprint();
    expectRefusal(
      await userAction(target.id, world.admin.jar, { intent: "credits", amount: "-9", reason: "estorno" }),
      409,
      "insufficient_credits",
      ["Saldo insuficiente", "O saldo não pode ficar abaixo de zero."],
    );
    expectRefusal(await userAction(target.id, world.admin.jar, { intent: "credits", amount: "0", reason: "nada" }), 400, "invalid");
    expectRefusal(await userAction(target.id, world.admin.jar, { intent: "credits", amount: "2", reason: "" }), 400, "invalid");
    expectRefusal(await userAction(target.id, world.admin.jar, { intent: "credits", amount: "1.5", reason: "meio" }), 400, "invalid");
    expect(await fingerprint()).toEqual(before);
    expect((await userAction(target.id, world.admin.jar, { intent: "credits", amount: "-8", reason: "estorno" })).status).toBe(302);
    expect(await balance()).toBe(0);
    const ledger = await world.db.select().from(creditLedger).where(eq(creditLedger.userId, target.id)).orderBy(creditLedger.id);
    expect(ledger.map((row) => [row.delta, row.balanceAfter, row.reason])).toEqual([
      [5, 8, "admin_grant:Bônus de boas-vindas"],
      [-8, 0, "admin_removal:estorno"],
    ]);
    const audit = await auditRows(target.id);
    expect(audit.map((row) => [row.action, row.before, row.after, row.reason])).toEqual([
      ["credits", { credits: 3 }, { credits: 8 }, "Bônus de boas-vindas"],
      ["credits", { credits: 8 }, { credits: 0 }, "estorno"],
    ]);
  });

  it("roles: make and remove admin; the last admin cannot remove themself", async () => {
    const target = await insertLearner(world.db);
    const isAdmin = async (id: string) =>
      (
        await world.db
          .select()
          .from(userRoles)
          .where(and(eq(userRoles.userId, id), eq(userRoles.role, "admin")))
      ).length === 1;
    expect((await userAction(target.id, world.admin.jar, { intent: "make_admin" })).status).toBe(302);
    expect(await isAdmin(target.id)).toBe(true);
    expectRefusal(await userAction(target.id, world.admin.jar, { intent: "make_admin" }), 409, "already_admin");
    expect((await userAction(target.id, world.admin.jar, { intent: "remove_admin" })).status).toBe(302);
    expect(await isAdmin(target.id)).toBe(false);
    const admins = await world.db
      .select({ n: sql<number>`count(*)::int` })
      .from(userRoles)
      .where(eq(userRoles.role, "admin"));
    expect(admins[0]!.n).toBe(1);
    const before = await fingerprint();
    expectRefusal(await userAction(world.admin.id, world.admin.jar, { intent: "remove_admin" }), 409, "last_admin", [
      "Não é possível remover o último administrador",
      "Promova outra pessoa antes de remover o seu acesso.",
    ]);
    expect(await fingerprint()).toEqual(before);
    expect((await auditRows(target.id)).map((row) => [row.action, row.before, row.after])).toEqual([
      ["make_admin", { isAdmin: false }, { isAdmin: true }],
      ["remove_admin", { isAdmin: true }, { isAdmin: false }],
    ]);
  });

  it("resend the confirmation e-mail: through the outbox, rate-limited, not for a confirmed address", async () => {
    const target = await insertLearner(world.db);
    await world.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, target.id));
    const [{ email }] = (await world.db.select({ email: users.email }).from(users).where(eq(users.id, target.id))) as [{ email: string }];
    const sent = await userAction(target.id, world.admin.jar, { intent: "resend_confirmation" });
    expect(sent.status).toBe(302);
    const mails = await world.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain("/confirm-email?token_hash=");
    expectRefusal(await userAction(target.id, world.admin.jar, { intent: "resend_confirmation" }), 429, "rate_limited");
    expectRefusal(await userAction(world.learner.id, world.admin.jar, { intent: "resend_confirmation" }), 409, "already_confirmed");
    expect((await auditRows(target.id)).map((row) => row.action)).toEqual(["resend_confirmation"]);
  });

  it("an unknown intent is a 400 with nothing stored", async () => {
    const before = await fingerprint();
    expectRefusal(await userAction(world.learner.id, world.admin.jar, { intent: "delete" }), 400, "invalid");
    expect(await fingerprint()).toEqual(before);
  });
});
