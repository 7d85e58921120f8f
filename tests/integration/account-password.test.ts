// /config/senha (issue 11): the §5 rules of the password change, a wrong current password refused and
// limited like sign-in, and a successful change that keeps this session and ends the user's others.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_CHANGE_MESSAGES as M } from "~/features/account/password-schema";
import { passwordCredentials } from "~/features/auth/tables";
import * as senha from "~/routes/_app+/config.senha";
import { createSession, getSessionUser } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { hashPassword, verifyPassword } from "~/server/password";
import { LIMITS } from "~/server/rate-limit.server";
import { rateLimitAttempts, sessions } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, expectRefusal, insertLearner, request, toastOf, type AdminReply } from "./harness";

const OLD = "senhaAntiga1";
const NEW = "novaSenha22";

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

/** A learner with a password, signed in (jar) and with a second session elsewhere (other). */
async function learnerWithPassword() {
  const learner = await insertLearner(db);
  await db.insert(passwordCredentials).values({ userId: learner.id, passwordHash: await hashPassword(OLD, 1000) });
  const other = new CookieJar();
  other.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), learner.id, request("/")) }));
  return { ...learner, other };
}

const post = (jar: CookieJar, form: Record<string, string>) =>
  call<AdminReply>(() => senha.action(args(request("/config/senha", { jar, form }), contextFor(db))));

const storedHash = async (userId: string) =>
  (await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, userId)))[0]!.passwordHash;

const fieldErrors = (outcome: { data: AdminReply }) => outcome.data.result.error ?? {};

describe("/config/senha", () => {
  it("loads for a signed-in learner and sends an anonymous visitor to /signin", async () => {
    const { jar } = await learnerWithPassword();
    expect((await call(() => senha.loader(args(request("/config/senha", { jar }), contextFor(db))))).status).toBe(200);
    const anonymous = await call(() => senha.loader(args(request("/config/senha"), contextFor(db))));
    expect(anonymous.location).toBe("/signin?redirectTo=%2Fconfig%2Fsenha");
  });

  it("refuses with the exact §5 messages and stores nothing", async () => {
    const { id, jar } = await learnerWithPassword();
    const before = await storedHash(id);

    const empty = await post(jar, { currentPassword: "", newPassword: "", confirmPassword: "" });
    expectRefusal(empty, 400, "invalid_input");
    expect(fieldErrors(empty).currentPassword).toEqual([M.currentRequired]);
    expect(fieldErrors(empty).newPassword?.[0]).toBe("A nova senha deve ter pelo menos 8 caracteres, incluir números e letras.");

    const short = await post(jar, { currentPassword: OLD, newPassword: "abc12", confirmPassword: "abc12" });
    expect(fieldErrors(short).newPassword).toEqual(["A nova senha deve ter pelo menos 8 caracteres, incluir números e letras."]);

    const noDigit = await post(jar, { currentPassword: OLD, newPassword: "somenteletras", confirmPassword: "somenteletras" });
    expect(fieldErrors(noDigit).newPassword).toEqual(["A senha deve conter pelo menos uma letra e um número."]);
    const noLetter = await post(jar, { currentPassword: OLD, newPassword: "1234567890", confirmPassword: "1234567890" });
    expect(fieldErrors(noLetter).newPassword).toEqual(["A senha deve conter pelo menos uma letra e um número."]);

    const mismatch = await post(jar, { currentPassword: OLD, newPassword: NEW, confirmPassword: `${NEW}x` });
    expectRefusal(mismatch, 400, "invalid_input");
    expect(fieldErrors(mismatch).confirmPassword).toEqual(["As senhas não coincidem."]);

    const noCurrent = await post(jar, { currentPassword: "", newPassword: NEW, confirmPassword: NEW });
    expect(fieldErrors(noCurrent)).toEqual({ currentPassword: ["Digite sua senha atual para confirmar a alteração."] });

    expect(await storedHash(id)).toBe(before);
    // Passwords are never sent back to the page.
    expect(JSON.stringify(mismatch.data)).not.toContain(NEW);
  });

  it("refuses a wrong current password (§8), counts it and, after 5, answers Muitas tentativas even for the right one", async () => {
    const { id, jar, other } = await learnerWithPassword();
    const before = await storedHash(id);
    for (let i = 0; i < LIMITS.passwordChange.max; i++) {
      const wrong = await post(jar, { currentPassword: "errada123", newPassword: NEW, confirmPassword: NEW });
      expectRefusal(wrong, 400, "wrong_password", ["Erro ao alterar senha.", "A senha atual está incorreta."]);
    }
    const limited = await post(jar, { currentPassword: OLD, newPassword: NEW, confirmPassword: NEW });
    expectRefusal(limited, 429, "rate_limited", ["Muitas tentativas", "Aguarde 15 minutos antes de tentar novamente."]);
    expect(await storedHash(id)).toBe(before);
    // Nothing ended: both sessions still sign the learner in.
    expect(await getSessionUser(request("/", { jar: other }), contextFor(db))).not.toBeNull();
    expect(await db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(2);
  });

  it("changes the password, keeps this session, ends every other one of the user (not other users') and clears the failures", async () => {
    const { id, jar, other } = await learnerWithPassword();
    const bystander = await insertLearner(db);
    await post(jar, { currentPassword: "errada123", newPassword: NEW, confirmPassword: NEW });
    const mine = await getSessionUser(request("/", { jar }), contextFor(db));

    const changed = await post(jar, { currentPassword: OLD, newPassword: NEW, confirmPassword: NEW });
    expect(changed.status).toBe(302);
    expect(changed.location).toBe("/config/senha");
    expect(await toastOf(changed)).toEqual({
      type: "success",
      title: "Senha alterada com sucesso!",
      description: "Por segurança, as outras sessões da sua conta foram encerradas.",
    });

    const hash = await storedHash(id);
    expect(await verifyPassword(NEW, hash)).toBe(true);
    expect(await verifyPassword(OLD, hash)).toBe(false);
    const left = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
    expect(left).toEqual([{ id: mine!.sessionId }]);
    expect(await getSessionUser(request("/", { jar }), contextFor(db))).not.toBeNull();
    expect(await getSessionUser(request("/", { jar: other }), contextFor(db))).toBeNull();
    expect(await getSessionUser(request("/", { jar: bystander.jar }), contextFor(db))).not.toBeNull();
    const failures = await db
      .select()
      .from(rateLimitAttempts)
      .where(and(eq(rateLimitAttempts.bucket, LIMITS.passwordChange.bucket), eq(rateLimitAttempts.subject, id)));
    expect(failures).toEqual([]);
  });

  it("a post without a session goes to /signin with 'Sessão expirada. Faça login novamente.'; a blocked account to /blocked", async () => {
    const anonymous = await post(new CookieJar(), { currentPassword: OLD, newPassword: NEW, confirmPassword: NEW });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe("/signin?redirectTo=%2Fconfig%2Fsenha");
    expect(await toastOf(anonymous)).toEqual({ type: "error", title: "Sessão expirada. Faça login novamente." });

    const blocked = await insertLearner(db, { accountType: "blocked" });
    await db.insert(passwordCredentials).values({ userId: blocked.id, passwordHash: await hashPassword(OLD, 1000) });
    const before = await storedHash(blocked.id);
    const refused = await post(blocked.jar, { currentPassword: OLD, newPassword: NEW, confirmPassword: NEW });
    expect(refused.location).toBe("/blocked");
    expect(await storedHash(blocked.id)).toBe(before);
  });

  it("an account without a password cannot change one (wrong current password)", async () => {
    const { id, jar } = await insertLearner(db);
    const refused = await post(jar, { currentPassword: OLD, newPassword: NEW, confirmPassword: NEW });
    expectRefusal(refused, 400, "wrong_password");
    expect(await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, id))).toEqual([]);
  });

  it("refuses a body that is not a form (415) before anything else", async () => {
    const { jar } = await learnerWithPassword();
    const req = new Request("http://nika.test/config/senha", {
      method: "POST",
      headers: { Cookie: jar.header(), "Content-Type": "application/json" },
      body: "{}",
    });
    expect((await call(() => senha.action(args(req, contextFor(db))))).status).toBe(415);
  });
});
