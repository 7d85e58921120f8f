// /comprar-creditos and its return page (issue 12) against the local fake speaking Stripe's API: the
// session is built from OUR pack (the browser sends only its id), recorded as an open purchase, and the
// learner is sent there (303, or the URL for the page's script); failures, 'No checkout URL returned',
// an unconfigured Stripe and the rate limit; coming back settles the session once and says so.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { creditPurchases } from "~/features/billing/tables";
import * as purchasePage from "~/routes/_app+/comprar-creditos._index";
import * as returnPage from "~/routes/_app+/comprar-creditos.retorno";
import type { Database } from "~/server/db.server";
import { rateLimitAttempts, users } from "~/server/schema";
import { startFakeUpstream, freePort } from "./fake-upstream";
import {
  args,
  call,
  contextFor,
  createTestDb,
  expectRefusal,
  insertLearner,
  request,
  toastOf,
  type AdminReply,
  type CookieJar,
} from "./harness";

const PORT = await freePort();
const STRIPE = `http://127.0.0.1:${PORT}`;
// Deliveries from the fake's hosted page go nowhere here: the return page must settle on its own.
const ENV = {
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_WEBHOOK_SECRET: "whsec_test_fake",
  STRIPE_API_URL: STRIPE,
  CREDIT_PACKS: "50:990,150:2490,400:5990",
};

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
  const fake = await startFakeUpstream(PORT, ["--stripe-webhook-url", "http://127.0.0.1:9/unreachable"]);
  return () => fake.stop();
});
beforeEach(async () => {
  await fetch(`${STRIPE}/__stripe/reset`, { method: "POST" });
});

type CheckoutReply = AdminReply & { url?: string };
const buy = (jar: CookieJar, form: Record<string, string>, env: Record<string, string> = ENV) =>
  call<CheckoutReply>(() => purchasePage.action(args(request("/comprar-creditos", { jar, form }), contextFor(db, env))));
const comeBack = (jar: CookieJar, sessionId: string) =>
  call(() => returnPage.loader(args(request(`/comprar-creditos/retorno?session_id=${sessionId}`, { jar }), contextFor(db, ENV))));

type FakeSession = { id: string; request: Record<string, unknown>; idempotencyKey: string | null };
const sessionsAtStripe = async () => (await (await fetch(`${STRIPE}/__stripe/sessions`)).json()) as FakeSession[];
const purchasesOf = (userId: string) => db.select().from(creditPurchases).where(eq(creditPurchases.userId, userId));
const balanceOf = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!.monthlyCredits;
const hook = (path: string) => fetch(`${STRIPE}${path}`, { method: "POST" }).then((r) => r.json() as Promise<Record<string, unknown>>);

describe("/comprar-creditos", () => {
  it("lists the packs of CREDIT_PACKS with their prices, and says when Stripe is not configured", async () => {
    const { jar } = await insertLearner(db, { credits: 7 });
    const page = await call<{ packs: unknown[]; available: boolean; balance: number }>(() =>
      purchasePage.loader(args(request("/comprar-creditos", { jar }), contextFor(db, ENV))),
    );
    expect(page.data).toMatchObject({
      available: true,
      balance: 7,
      packs: [
        { id: "50", credits: 50, priceCents: 990 },
        { id: "150", credits: 150, priceCents: 2490 },
        { id: "400", credits: 400, priceCents: 5990 },
      ],
    });
    const unconfigured = await call<{ available: boolean }>(() =>
      purchasePage.loader(args(request("/comprar-creditos", { jar }), contextFor(db, {}))),
    );
    expect(unconfigured.data.available).toBe(false);
    const anonymous = await call(() => purchasePage.loader(args(request("/comprar-creditos"), contextFor(db, ENV))));
    expect(anonymous.location).toBe("/signin?redirectTo=%2Fcomprar-creditos");
  });

  it("creates a BRL Checkout Session from our pack, records it as open and redirects there (303)", async () => {
    const learner = await insertLearner(db);
    // A price or credits sent along by the browser are not read.
    const answer = await buy(learner.jar, { pack: "150", price: "1", credits: "99999" });
    expect(answer.status).toBe(303);
    const [session] = await sessionsAtStripe();
    expect(answer.location).toBe(`${STRIPE}/stripe/checkout/${session!.id}`);
    expect(session!.request).toMatchObject({
      mode: "payment",
      client_reference_id: learner.id,
      metadata: { pack: "150", user_id: learner.id },
      locale: "pt-BR",
      line_items: [{ quantity: "1", price_data: { currency: "brl", unit_amount: "2490", product_data: { name: "150 créditos Nika" } } }],
      success_url: "http://nika.test/comprar-creditos/retorno?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://nika.test/comprar-creditos?cancelado=1",
    });
    expect(session!.request).not.toHaveProperty("payment_method_types");
    expect(await purchasesOf(learner.id)).toEqual([
      expect.objectContaining({
        checkoutSessionId: session!.id,
        packId: "150",
        credits: 150,
        amountCents: 2490,
        currency: "brl",
        status: "open",
      }),
    ]);
    expect(await balanceOf(learner.id)).toBe(10);
  });

  it("answers the URL itself when the page's script asks (respond=url)", async () => {
    const learner = await insertLearner(db);
    const answer = await buy(learner.jar, { pack: "50", respond: "url" });
    expect(answer.status).toBe(200);
    expect(answer.data.url).toMatch(new RegExp(`^${STRIPE}/stripe/checkout/cs_test_`));
  });

  it("refuses an unknown or malformed pack with 400, before calling Stripe", async () => {
    const learner = await insertLearner(db);
    expectRefusal(await buy(learner.jar, { pack: "999" }), 400, "unknown_pack", ["Escolha um pacote."]);
    expectRefusal(await buy(learner.jar, { pack: "abc" }), 400, "invalid");
    expectRefusal(await buy(learner.jar, {}), 400, "invalid");
    expectRefusal(await buy(learner.jar, { pack: "50", respond: "html" }), 400, "invalid");
    expect(await sessionsAtStripe()).toEqual([]);
    expect(await purchasesOf(learner.id)).toEqual([]);
  });

  it("a Stripe error and a session without URL ('No checkout URL returned') are the checkout failure; nothing recorded", async () => {
    const learner = await insertLearner(db);
    await hook("/__stripe/next?mode=error");
    expectRefusal(await buy(learner.jar, { pack: "50", respond: "url" }), 502, "checkout_failed", [
      "Erro ao processar pagamento. Tente novamente.",
    ]);
    await hook("/__stripe/next?mode=nourl");
    expectRefusal(await buy(learner.jar, { pack: "50" }), 502, "checkout_failed", ["Erro ao processar pagamento. Tente novamente."]);
    expect(await purchasesOf(learner.id)).toEqual([]);
  });

  it("says purchases are unavailable (503) when Stripe is not configured", async () => {
    const learner = await insertLearner(db);
    expectRefusal(await buy(learner.jar, { pack: "50" }, {}), 503, "unavailable", [
      "Compras de créditos indisponíveis no momento.",
      "Os pagamentos ainda não foram configurados. Seus créditos mensais continuam valendo.",
    ]);
  });

  it("allows 10 checkouts per learner in 10 minutes; the 11th is 429 without calling Stripe", async () => {
    const learner = await insertLearner(db);
    for (let i = 0; i < 10; i++) expect((await buy(learner.jar, { pack: "50" })).status).toBe(303);
    const refused = await buy(learner.jar, { pack: "50" });
    expectRefusal(refused, 429, "rate_limited", ["Muitas tentativas", "Aguarde 10 minutos antes de tentar novamente."]);
    expect(await sessionsAtStripe()).toHaveLength(10);
    const attempts = await db.select().from(rateLimitAttempts).where(eq(rateLimitAttempts.subject, learner.id));
    expect(attempts.filter((a) => a.bucket === "checkout")).toHaveLength(10);
  });

  it("blocked accounts and visitors cannot start a checkout", async () => {
    const blocked = await insertLearner(db, { accountType: "blocked" });
    expect((await buy(blocked.jar, { pack: "50" })).location).toBe("/blocked");
    const anonymous = await call(() => purchasePage.action(args(request("/comprar-creditos", { form: { pack: "50" } }), contextFor(db, ENV))));
    expect(anonymous.location).toMatch(/^\/signin/);
    expect(await sessionsAtStripe()).toEqual([]);
  });
});

describe("/comprar-creditos/retorno", () => {
  async function checkout(credits = 10) {
    const learner = await insertLearner(db, { credits });
    await buy(learner.jar, { pack: "150" });
    const [session] = await sessionsAtStripe();
    return { ...learner, sessionId: session!.id };
  }

  it("settles a card payment whose webhook has not landed, once, and says 'Créditos adicionados'", async () => {
    const buyer = await checkout();
    expect((await hook(`/__stripe/sessions/${buyer.sessionId}/pay?method=card`)).status).toBe(0); // delivery failed
    const back = await comeBack(buyer.jar, buyer.sessionId);
    expect(back.location).toBe("/config?tab=conta");
    expect(await toastOf(back)).toEqual({ type: "success", title: "Créditos adicionados", description: "+150 créditos" });
    expect(await balanceOf(buyer.id)).toBe(160);
    // Reloading the return page (or the webhook arriving late) adds nothing more.
    expect(await toastOf(await comeBack(buyer.jar, buyer.sessionId))).toMatchObject({ title: "Créditos adicionados" });
    expect(await balanceOf(buyer.id)).toBe(160);
    expect((await purchasesOf(buyer.id))[0]!.status).toBe("paid");
  });

  it("says the payment is being processed while a Pix is pending", async () => {
    const buyer = await checkout();
    await hook(`/__stripe/sessions/${buyer.sessionId}/pay?method=pix`);
    const back = await comeBack(buyer.jar, buyer.sessionId);
    expect(back.location).toBe("/config?tab=conta");
    expect(await toastOf(back)).toEqual({
      type: "info",
      title: "Pagamento em processamento",
      description: "Os créditos entram assim que o pagamento (Pix) for confirmado.",
    });
    expect(await balanceOf(buyer.id)).toBe(10);
    expect((await purchasesOf(buyer.id))[0]!.status).toBe("pending");
  });

  it("an unpaid, foreign, unknown or malformed session adds nothing and says so", async () => {
    const buyer = await checkout();
    const other = await insertLearner(db);
    await hook(`/__stripe/sessions/${buyer.sessionId}/pay?method=card`);
    for (const [jar, sessionId] of [
      [other.jar, buyer.sessionId],
      [buyer.jar, "cs_test_unknown"],
      [buyer.jar, "not-a-session"],
    ] as const) {
      const back = await comeBack(jar, sessionId);
      expect(back.location).toBe("/comprar-creditos");
      expect(await toastOf(back)).toMatchObject({ type: "error", title: "Pagamento não concluído" });
    }
    expect(await balanceOf(other.id)).toBe(10);
    expect(await balanceOf(buyer.id)).toBe(10);
  });
});
