// The Conta tab of /config: credits panel and history, name / WhatsApp / e-mail editing, the e-mail
// change end to end through the outbox (/confirm-email), its limits, and the background handler.
import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  derivedStatistics,
  formatCountdown,
  isWhatsapp,
  ledgerLabel,
  nextRenewalDate,
  sanitizeText,
  secondsToSaoPauloMidnight,
} from "~/features/account/account-rules";
import { emailChangeLinkTarget, isConfirmationAcceptedHash } from "~/features/account/email-change-links";
import { profileUpdates } from "~/features/account/tables";
import { authTokens } from "~/features/auth/tables";
import * as root from "~/root";
import * as appLayout from "~/routes/_app+/_layout";
import * as configFrame from "~/routes/_app+/config";
import * as config from "~/routes/_app+/config._index";
import * as confirmEmail from "~/routes/_auth+/confirm-email";
import type { Database } from "~/server/db.server";
import { creditLedger, mailOutbox, rateLimitAttempts, users } from "~/server/schema";
import {
  args,
  call,
  contextFor,
  CookieJar,
  createTestDb,
  expectRefusal,
  insertLearner,
  request,
  toastOf,
  type AdminReply,
  type TestLearner,
} from "./harness";

let db: Database;
let queryCount: () => number;
let resetQueryCount: () => void;
let n = 0;
const freshEmail = () => `novo-${++n}-${Date.now().toString(36)}@example.com`;

beforeAll(async () => {
  ({ db, queryCount, resetQueryCount } = await createTestDb());
});

type Loaded = Awaited<ReturnType<typeof config.loader>>;
const load = (learner: TestLearner, path = "/config") =>
  call<Loaded>(() => config.loader(args(request(path, { jar: learner.jar }), contextFor(db))));
const post = (learner: TestLearner, form: Record<string, string>) =>
  call<AdminReply & { email?: string }>(() => config.action(args(request("/config", { form, jar: learner.jar }), contextFor(db))));
const userRow = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!;
const updatesOf = async (id: string) => (await db.select().from(profileUpdates).where(eq(profileUpdates.userId, id))).map((r) => r.field).sort();
const mailsTo = (address: string) => db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)).orderBy(desc(mailOutbox.id));
const linkIn = (text: string) => new URL(text.match(/https?:\/\/\S+/)![0]);

async function changeEmail(learner: TestLearner, email: string) {
  const asked = await post(learner, { intent: "email", email });
  expect(asked.status).toBe(200);
  expect(asked.data).toMatchObject({ code: "confirm_email", email: email.trim().toLowerCase() });
  return post(learner, { intent: "email", email, confirmed: "1" });
}

describe("the Conta tab's page", () => {
  it("shows credits, allowance, renewal, history, profile and statistics in a bounded number of statements", async () => {
    const learner = await insertLearner(db, { credits: 7, name: "Bia" });
    await db
      .update(users)
      .set({ conversationsStarted: 2, flashcardsPlayed: 3, lessonsWatched: 4, modulesCompleted: 1, courseCompletion: 12 })
      .where(eq(users.id, learner.id));
    await db.insert(creditLedger).values([
      { userId: learner.id, delta: 50, balanceAfter: 50, reason: "monthly_renewal:2026-11", createdAt: new Date(Date.now() - 5000) },
      { userId: learner.id, delta: -1, balanceAfter: 49, reason: "flashcards", createdAt: new Date(Date.now() - 4000) },
      { userId: learner.id, delta: 1, balanceAfter: 50, reason: "refund:provider_failed", createdAt: new Date(Date.now() - 3000) },
      { userId: learner.id, delta: 5, balanceAfter: 55, reason: "admin_grant", createdAt: new Date(Date.now() - 2000) },
    ]);
    resetQueryCount();
    const page = await load(learner);
    // the session (user + role in one select) and the tab's one statement
    expect(queryCount()).toBeLessThanOrEqual(2);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      name: "Bia",
      credits: { balance: 7, allowance: 50 },
      stats: { conversationsStarted: 2, flashcardsPlayed: 3, lessonsWatched: 4, modulesCompleted: 1, courseCompletion: 12 },
      emailChangePending: false,
      emailBlockedMs: 0,
      hasMoreLedger: false,
    });
    expect(page.data.ledger.map((e) => ledgerLabel(e.reason, e.delta))).toEqual([
      "Créditos concedidos pela equipe",
      "Devolução (falha ao responder)",
      "Jogo de flashcards",
      "Renovação mensal (novembro de 2026)",
    ]);
    expect(derivedStatistics(page.data.stats)).toEqual({ hasCompletedOnboarding: true, totalActivities: 5, engagement: 50 });
  });

  it("the whole /config page (root, signed-in layout, frame and tab, one load context) stays within a fixed number of statements", async () => {
    const learner = await insertLearner(db);
    const context = contextFor(db);
    resetQueryCount();
    const req = () => request("/config", { jar: learner.jar });
    const answers = await Promise.all([
      call(() => root.loader(args(req(), context))),
      call(() => appLayout.loader(args(req(), context))),
      call(() => configFrame.loader(args(req(), context))),
      call(() => config.loader(args(req(), context))),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // the session (memoised), the flags (memoised) and the tab's one statement
    expect(queryCount()).toBeLessThanOrEqual(3);
  });

  it("pages the credit history ten at a time, opens a field for editing by URL and keeps the ?tab= redirects", async () => {
    const learner = await insertLearner(db);
    await db.insert(creditLedger).values(
      Array.from({ length: 12 }, (_, i) => ({
        userId: learner.id,
        delta: -1,
        balanceAfter: 12 - i,
        reason: "chat_message",
        createdAt: new Date(Date.now() - 60_000 + i * 1000),
      })),
    );
    const first = await load(learner);
    expect(first.data.ledger).toHaveLength(10);
    // Written by the server in São Paulo time (the page hydrates without an Intl formatter).
    const newest = first.data.ledger[0]!;
    const saoPaulo = new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" });
    expect(newest.createdAtLabel).toBe(saoPaulo.format(new Date(newest.createdAt)));
    expect(newest.createdAtLabel).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
    expect(newest.amountLabel).toBeNull();
    expect(first.data.hasMoreLedger).toBe(true);
    const second = await load(learner, "/config?historico=2&edit=whatsapp");
    expect(second.data.ledger).toHaveLength(2);
    expect(second.data.hasMoreLedger).toBe(false);
    expect(second.data.editing).toBe("whatsapp");
    expect((await load(learner, "/config?edit=senha")).data.editing).toBeNull();
    expect((await load(learner, "/config?tab=password")).location).toBe("/config/senha");
    expect((await load(learner, "/config?tab=account")).status).toBe(200);
  });

  it("sends an anonymous visitor to sign in and a blocked one to /blocked, and their posts change nothing", async () => {
    const anonymous = await call(() => config.loader(args(request("/config"), contextFor(db))));
    expect(anonymous.location).toBe("/signin?redirectTo=%2Fconfig");
    const blocked = await insertLearner(db, { accountType: "blocked" });
    const refused = await post(blocked, { intent: "name", name: "Outro" });
    expect(refused.location).toBe("/blocked");
    expect((await userRow(blocked.id)).name).toBe("Aluna");
  });
});

describe("name and WhatsApp", () => {
  it("saves a sanitised name, records the profile update once, and refuses blank or long names", async () => {
    const learner = await insertLearner(db);
    const saved = await post(learner, { intent: "name", name: "  Ana \t D'Ávila\n " });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/config");
    expect(await toastOf(saved)).toEqual({ type: "success", title: "Nome atualizado" });
    expect((await userRow(learner.id)).name).toBe("Ana D'Ávila");
    expect(await updatesOf(learner.id)).toEqual(["name"]);
    // the same name again is no change
    await post(learner, { intent: "name", name: "Ana D'Ávila" });
    expect(await updatesOf(learner.id)).toEqual(["name"]);

    const blank = await post(learner, { intent: "name", name: "   " });
    expect(blank.status).toBe(400);
    expect(blank.data.result.error).toMatchObject({ name: ["Nome é obrigatório"] });
    const long = await post(learner, { intent: "name", name: "a".repeat(101) });
    expect(long.data.result.error).toMatchObject({ name: ["Nome muito longo (máximo 100 caracteres)"] });
    expect((await userRow(learner.id)).name).toBe("Ana D'Ávila");
  });

  it("saves a WhatsApp number and refuses blank or malformed ones", async () => {
    const learner = await insertLearner(db);
    const saved = await post(learner, { intent: "whatsapp", whatsapp: " +55 (11) 98888-7777 " });
    expect(await toastOf(saved)).toEqual({ type: "success", title: "WhatsApp atualizado" });
    expect((await userRow(learner.id)).phoneNumber).toBe("+55 (11) 98888-7777");
    expect(await updatesOf(learner.id)).toEqual(["phone"]);
    const blank = await post(learner, { intent: "whatsapp", whatsapp: "  " });
    expect(blank.data.result.error).toMatchObject({ whatsapp: ["WhatsApp é obrigatório"] });
    for (const bad of ["abc", "1234", "+55 11 9888877776666555"]) {
      const refused = await post(learner, { intent: "whatsapp", whatsapp: bad });
      expect(refused.status).toBe(400);
      expect(refused.data.result.error).toMatchObject({ whatsapp: ["WhatsApp inválido"] });
    }
    const unknown = await post(learner, { intent: "delete_account" });
    expect(unknown.status).toBe(400);
    expect((await userRow(learner.id)).phoneNumber).toBe("+55 (11) 98888-7777");
  });
});

describe("the e-mail change", () => {
  it("validates the new address with the spec's messages", async () => {
    const learner = await insertLearner(db);
    const me = (await userRow(learner.id)).email;
    const cases: [string, string][] = [
      ["  ", "Email é obrigatório"],
      ["nao-e-email", "Email inválido"],
      [`${"a".repeat(250)}@example.com`, "Email muito longo (máximo 254 caracteres)"],
      [`  ${me.toUpperCase()} `, "Este já é o seu email atual"],
    ];
    for (const [email, message] of cases) {
      const refused = await post(learner, { intent: "email", email, confirmed: "1" });
      expect(refused.status).toBe(400);
      expect(refused.data.result.error).toMatchObject({ email: [message] });
    }
    expect(await mailsTo(me)).toEqual([]);
  });

  it("goes end to end: confirm step, link to the new address, notice to the old one, Pendente, /confirm-email, /config", async () => {
    const learner = await insertLearner(db, { name: "Carla Souza" });
    const old = (await userRow(learner.id)).email;
    const target = freshEmail();
    // the first step only asks to confirm: nothing sent, nothing stored
    const asked = await post(learner, { intent: "email", email: `  ${target.toUpperCase()} ` });
    expect(asked.data).toMatchObject({ code: "confirm_email", email: target });
    expect(await mailsTo(target)).toEqual([]);
    expect((await userRow(learner.id)).newEmail).toBeNull();

    const sent = await post(learner, { intent: "email", email: target, confirmed: "1" });
    expect(sent.location).toBe("/config");
    expect(await toastOf(sent)).toMatchObject({ type: "success", title: "Link de confirmação enviado" });
    const [link] = await mailsTo(target);
    expect(link).toMatchObject({ kind: "email_change", subject: "Confirme o seu novo email no Nika" });
    const [notice] = await mailsTo(old);
    expect(notice).toMatchObject({ kind: "email_change_notice" });
    expect(notice!.textBody).toContain(target);

    const pending = await load(learner);
    expect(pending.data).toMatchObject({ email: old, newEmail: target, emailChangePending: true });

    const url = linkIn(link!.textBody);
    expect(url.pathname).toBe("/confirm-email");
    expect(url.searchParams.get("type")).toBe("email_change");
    const confirmed = await call<{ state: string; next: string }>(() =>
      confirmEmail.loader(args(request(url.pathname + url.search, { jar: learner.jar }), contextFor(db))),
    );
    expect(confirmed.data).toEqual({ state: "success", next: "/config" });
    expect(await userRow(learner.id)).toMatchObject({ email: target, newEmail: null });
    expect(await updatesOf(learner.id)).toEqual(["email"]);
    const after = await load(learner);
    expect(after.data).toMatchObject({ email: target, newEmail: null, emailChangePending: false });

    // the same link again (another browser, signed out): success page, nothing more recorded
    const again = await call<{ state: string; next: string }>(() =>
      confirmEmail.loader(args(request(url.pathname + url.search), contextFor(db))),
    );
    expect(again.data).toEqual({ state: "success", next: "/email-change-verification" });
    expect(await updatesOf(learner.id)).toEqual(["email"]);
  });

  it("allows one change at a time; cancelling ends it and voids its link", async () => {
    const learner = await insertLearner(db);
    const first = freshEmail();
    await changeEmail(learner, first);
    const second = await post(learner, { intent: "email", email: freshEmail() });
    expectRefusal(second, 409, "change_in_progress", [
      "Alteração em andamento",
      `Confirme o link enviado para ${first} ou cancele a alteração antes de pedir outra.`,
    ]);
    const [link] = await mailsTo(first);
    const cancelled = await post(learner, { intent: "cancel_email" });
    expect(await toastOf(cancelled)).toMatchObject({ title: "Alteração de email cancelada" });
    expect((await userRow(learner.id)).newEmail).toBeNull();
    const url = linkIn(link!.textBody);
    const dead = await call<{ state: string }>(() =>
      confirmEmail.loader(args(request(url.pathname + url.search, { jar: learner.jar }), contextFor(db))),
    );
    expect(dead.data.state).toBe("error");
    expect((await userRow(learner.id)).email).not.toBe(first);
    // and a new change is possible again
    expect((await changeEmail(learner, freshEmail())).location).toBe("/config");
  });

  it("refuses an address another account uses, at both steps", async () => {
    const learner = await insertLearner(db);
    const other = await insertLearner(db);
    const taken = (await userRow(other.id)).email;
    expectRefusal(await post(learner, { intent: "email", email: taken }), 409, "email_exists", [
      "Email já cadastrado",
      "Este email já está em uso por outra conta.",
    ]);
    expectRefusal(await post(learner, { intent: "email", email: taken, confirmed: "1" }), 409, "email_exists");
    expect((await userRow(learner.id)).newEmail).toBeNull();
    expect(await db.select().from(authTokens).where(eq(authTokens.userId, learner.id))).toEqual([]);
  });

  it("a link to an address someone took meanwhile changes nothing", async () => {
    const learner = await insertLearner(db);
    const target = freshEmail();
    await changeEmail(learner, target);
    const [link] = await mailsTo(target);
    const other = await insertLearner(db);
    await db.update(users).set({ email: target }).where(eq(users.id, other.id));
    const url = linkIn(link!.textBody);
    const refused = await call<{ state: string }>(() =>
      confirmEmail.loader(args(request(url.pathname + url.search, { jar: learner.jar }), contextFor(db))),
    );
    expect(refused.data.state).toBe("error");
    expect((await userRow(learner.id)).email).not.toBe(target);
    expect(await updatesOf(learner.id)).toEqual([]);
  });

  it("an address taken in the same instant (the unique index, not the statement's check, catches it) is refused, not a 500", async () => {
    const learner = await insertLearner(db);
    const target = freshEmail();
    await changeEmail(learner, target);
    const [link] = await mailsTo(target);
    const other = await insertLearner(db);
    // A parallel change to the same address, made deterministic: the link's own statement, as it marks the token used,
    // gives the address to another account — a row its snapshot cannot see, so only the unique index stops the swap.
    await db.execute(
      sql.raw(`create function take_address() returns trigger language plpgsql as $$
        begin update users set email = new.new_email where id = '${other.id}'; return new; end $$`),
    );
    await db.execute(sql.raw("create trigger take_address after update of used_at on auth_tokens for each row execute function take_address()"));
    try {
      const url = linkIn(link!.textBody);
      const refused = await call<{ state: string }>(() =>
        confirmEmail.loader(args(request(url.pathname + url.search, { jar: learner.jar }), contextFor(db))),
      );
      expect(refused.data.state).toBe("error");
    } finally {
      await db.execute(sql.raw("drop trigger take_address on auth_tokens"));
      await db.execute(sql.raw("drop function take_address()"));
    }
    expect((await userRow(learner.id)).email).not.toBe(target);
    expect(await updatesOf(learner.id)).toEqual([]);
  });

  it("after three links in ten minutes says 'Limite de emails excedido' and blocks editing for 10 minutes", async () => {
    const learner = await insertLearner(db);
    const target = freshEmail();
    await changeEmail(learner, target);
    for (let i = 0; i < 2; i++) expect((await post(learner, { intent: "resend_email" })).location).toBe("/config");
    expect(await mailsTo(target)).toHaveLength(3);
    const limited = await post(learner, { intent: "resend_email" });
    expectRefusal(limited, 429, "rate_limited", ["Limite de emails excedido", "Aguarde 10 minutos antes de tentar novamente."]);
    expect(await mailsTo(target)).toHaveLength(3);
    const page = await load(learner);
    expect(page.data.emailBlockedMs).toBeGreaterThan(9 * 60_000);
    expect(page.data.emailBlockedMs).toBeLessThanOrEqual(10 * 60_000);
    // blocked for every e-mail intent, also after cancelling the pending change
    await post(learner, { intent: "cancel_email" });
    expectRefusal(await post(learner, { intent: "email", email: freshEmail() }), 429, "rate_limited");
    expectRefusal(await post(learner, { intent: "email", email: freshEmail(), confirmed: "1" }), 429, "rate_limited");
    // ten minutes later the block is over
    await db
      .update(rateLimitAttempts)
      .set({ createdAt: sql`${rateLimitAttempts.createdAt} - interval '11 minutes'` })
      .where(eq(rateLimitAttempts.subject, learner.id));
    expect((await load(learner)).data.emailBlockedMs).toBe(0);
    expect((await changeEmail(learner, freshEmail())).location).toBe("/config");
  });

  it("an expired link shows the expired state, whose resend mails a new link to the pending address", async () => {
    const learner = await insertLearner(db);
    const target = freshEmail();
    await changeEmail(learner, target);
    const [link] = await mailsTo(target);
    await db
      .update(authTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(authTokens.userId, learner.id), eq(authTokens.purpose, "email_change")));
    const url = linkIn(link!.textBody);
    const expired = await call<{ state: string; kind: string }>(() =>
      confirmEmail.loader(args(request(url.pathname + url.search), contextFor(db))),
    );
    expect(expired.status).toBe(410);
    expect(expired.data).toEqual({ state: "expired", kind: "email_change" });
    expect((await load(learner)).data).toMatchObject({ newEmail: target, emailChangePending: false });

    // without a session the resend goes to /config (which asks to sign in)
    const anonymous = await call(() =>
      confirmEmail.action(args(request("/confirm-email", { form: { intent: "resend_email_change" } }), contextFor(db))),
    );
    expect(anonymous.location).toBe("/config");
    expect(await mailsTo(target)).toHaveLength(1);

    const resent = await call(() =>
      confirmEmail.action(args(request("/confirm-email", { form: { intent: "resend_email_change" }, jar: learner.jar }), contextFor(db))),
    );
    expect(resent.location).toBe("/config");
    expect(await toastOf(resent)).toMatchObject({ title: "Email reenviado" });
    const [fresh] = await mailsTo(target);
    const freshUrl = linkIn(fresh!.textBody);
    const other = new CookieJar();
    const done = await call<{ state: string; next: string }>(() =>
      confirmEmail.loader(args(request(freshUrl.pathname + freshUrl.search, { jar: other }), contextFor(db))),
    );
    expect(done.data.state).toBe("success");
    expect((await userRow(learner.id)).email).toBe(target);
  });

  it("the resend of the expired page answers 'Erro ao reenviar' when nothing is pending", async () => {
    const learner = await insertLearner(db);
    const refused = await call<AdminReply>(() =>
      confirmEmail.action(args(request("/confirm-email", { form: { intent: "resend_email_change" }, jar: learner.jar }), contextFor(db))),
    );
    expectRefusal(refused, 409, "nothing_pending", ["Erro ao reenviar", "Não há alteração de email pendente."]);
  });
});

describe("the background handler", () => {
  it("sends an e-mail change link that landed on any page to /confirm-email, on the server", async () => {
    const landed = await call(() => root.loader(args(request("/?token_hash=abc%2B1&type=email_change"), contextFor(db))));
    expect(landed.status).toBe(302);
    expect(landed.location).toBe("/confirm-email?token_hash=abc%2B1&type=email_change");
    expect(emailChangeLinkTarget(new URL("http://x/courses?token_hash=t&type=email_change"))).toBe(
      "/confirm-email?token_hash=t&type=email_change",
    );
    expect(emailChangeLinkTarget(new URL("http://x/confirm-email?token_hash=t&type=email_change"))).toBeNull();
    expect(emailChangeLinkTarget(new URL("http://x/?token_hash=t&type=signup"))).toBeNull();
    const plain = await call(() => root.loader(args(request("/"), contextFor(db))));
    expect(plain.status).toBe(200);
  });

  it("recognises the 'Confirmation link accepted' hash", () => {
    expect(isConfirmationAcceptedHash("#message=Confirmation+link+accepted.+Please+proceed+to+confirm+link+sent+to+the+other+email")).toBe(true);
    expect(isConfirmationAcceptedHash("#message=Something+else")).toBe(false);
    expect(isConfirmationAcceptedHash("")).toBe(false);
  });
});

describe("rules", () => {
  it("sanitise text, check WhatsApp numbers, and count down to São Paulo's midnight and the 1st", () => {
    expect(sanitizeText(`  a\u0000b   c \n`)).toBe("a b c");
    expect(sanitizeText("x".repeat(6000))).toHaveLength(5000);
    expect(isWhatsapp("+55 11 98888-7777")).toBe(true);
    expect(isWhatsapp("9888-7777")).toBe(true);
    expect(isWhatsapp("+55 11 9888x-7777")).toBe(false);
    // 2026-11-30 23:30 in São Paulo (UTC-3) is 2026-12-01 02:30 UTC
    const lateNovember = new Date("2026-12-01T02:30:00Z");
    expect(nextRenewalDate(lateNovember)).toBe("2026-12-01");
    expect(secondsToSaoPauloMidnight(lateNovember)).toBe(30 * 60);
    expect(nextRenewalDate(new Date("2026-12-15T12:00:00Z"))).toBe("2027-01-01");
    expect(formatCountdown(5 * 3600 + 7 * 60)).toBe("5 h 07 min");
    expect(derivedStatistics({ conversationsStarted: 0, flashcardsPlayed: 0 })).toEqual({
      hasCompletedOnboarding: false,
      totalActivities: 0,
      engagement: 0,
    });
    expect(derivedStatistics({ conversationsStarted: 30, flashcardsPlayed: 1 }).engagement).toBe(100);
    expect(ledgerLabel("pronunciation", -1)).toBe("Tentativa de pronúncia");
    expect(ledgerLabel("refund:pronunciation", 1)).toBe("Devolução (pronúncia)");
    expect(ledgerLabel("purchase:stripe", 100)).toBe("Compra de créditos");
    expect(ledgerLabel("admin_remove", -3)).toBe("Créditos removidos pela equipe");
  });
});
