// POST /api/stripe/webhook (issue 12): the signature is checked (valid, wrong secret, too old) before
// anything is read; a paid session adds the pack's credits exactly once — also under 20 concurrent
// deliveries of the same event; Pix is pending, then credited; a refund takes the credits back (never
// below zero); unknown events are acknowledged and ignored. Events are signed the way Stripe signs them,
// with the stripe package's own test helper.
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { creditPurchases } from "~/features/billing/tables";
import * as webhook from "~/routes/api+/stripe.webhook";
import { renewCreditsIfDue, spendCredits } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { creditLedger, users } from "~/server/schema";
import { args, call, contextFor, createTestDb, insertLearner } from "./harness";

const SECRET = "whsec_integration";
const ENV = { STRIPE_SECRET_KEY: "sk_test_unused", STRIPE_WEBHOOK_SECRET: SECRET, CREDIT_PACKS: "50:990,150:2490,400:5990" };
const crypto = Stripe.createSubtleCryptoProvider();

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

let counter = 0;
const nextId = (prefix: string) => `${prefix}_test_${Date.now().toString(36)}${++counter}`;

type SessionState = { payment_status: "paid" | "unpaid"; status?: "complete" | "open"; amount_total?: number; currency?: string };

function sessionObject(id: string, userId: string, pack: string, state: SessionState, paymentIntent: string) {
  const prices: Record<string, number> = { "50": 990, "150": 2490, "400": 5990 };
  return {
    id,
    object: "checkout.session",
    mode: "payment",
    status: state.status ?? "complete",
    payment_status: state.payment_status,
    amount_total: state.amount_total ?? prices[pack],
    currency: state.currency ?? "brl",
    client_reference_id: userId,
    metadata: { pack, user_id: userId },
    payment_intent: paymentIntent,
  };
}

function eventOf(type: string, object: unknown, id = nextId("evt")) {
  return JSON.stringify({
    id,
    object: "event",
    api_version: "2025-10-29.clover",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
  });
}

async function signed(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    cryptoProvider: crypto,
  });
}

const deliver = (payload: string, headers: Record<string, string>) =>
  call<{ received?: boolean; outcome?: string; code?: string; error?: string }>(() =>
    webhook.action(
      args(
        new Request("http://nika.test/api/stripe/webhook", {
          method: "POST",
          headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
          body: payload,
        }),
        contextFor(db, ENV),
      ),
    ),
  );
const deliverSigned = async (payload: string) => deliver(payload, { "Stripe-Signature": await signed(payload) });

const balanceOf = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!;
const purchasesOf = (userId: string) => db.select().from(creditPurchases).where(eq(creditPurchases.userId, userId));
const ledgerOf = (userId: string) => db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);

/** A learner who chose a pack: the open purchase row startCheckout writes. */
async function learnerWithOpenPurchase(pack: "50" | "150" | "400", credits = 10) {
  const learner = await insertLearner(db, { credits });
  const sessionId = nextId("cs");
  const prices = { "50": 990, "150": 2490, "400": 5990 };
  await db.insert(creditPurchases).values({
    userId: learner.id,
    checkoutSessionId: sessionId,
    packId: pack,
    credits: Number(pack),
    amountCents: prices[pack],
    currency: "brl",
  });
  return { ...learner, sessionId, paymentIntent: nextId("pi") };
}

describe("the signature", () => {
  it("accepts a correctly signed event and credits the pack once", async () => {
    const buyer = await learnerWithOpenPurchase("150");
    const payload = eventOf(
      "checkout.session.completed",
      sessionObject(buyer.sessionId, buyer.id, "150", { payment_status: "paid" }, buyer.paymentIntent),
    );
    const answer = await deliverSigned(payload);
    expect(answer).toMatchObject({ status: 200, data: { received: true, outcome: "credited" } });
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 160, purchasedCredits: 150 });
    expect(await purchasesOf(buyer.id)).toEqual([
      expect.objectContaining({
        status: "paid",
        paymentIntentId: buyer.paymentIntent,
        credits: 150,
        amountCents: 2490,
        paidAt: expect.any(Date),
      }),
    ]);
    const purchaseId = (await purchasesOf(buyer.id))[0]!.id;
    expect((await ledgerOf(buyer.id)).map((l) => [l.delta, l.balanceAfter, l.reason, l.amountCents, l.currency])).toEqual([
      [150, 160, `purchase:${purchaseId}`, 2490, "brl"],
    ]);
  });

  it("refuses a wrong secret, a stale timestamp, a missing header and a tampered body with 400, storing nothing", async () => {
    const buyer = await learnerWithOpenPurchase("50");
    const payload = eventOf(
      "checkout.session.completed",
      sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "paid" }, buyer.paymentIntent),
    );
    const attempts: [string, Record<string, string>][] = [
      ["wrong secret", { "Stripe-Signature": await signed(payload, { secret: "whsec_someone_else" }) }],
      ["older than 5 minutes", { "Stripe-Signature": await signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 }) }],
      ["no header", {}],
      ["garbage header", { "Stripe-Signature": "t=1,v1=abc" }],
    ];
    for (const [, headers] of attempts) {
      const answer = await deliver(payload, headers);
      expect(answer.status).toBe(400);
      expect(answer.data).toMatchObject({ code: "bad_signature", error: "Assinatura do webhook inválida." });
    }
    // Signed, then changed: the credits in the body cannot be raised on the way.
    const header = await signed(payload);
    const tampered = payload.replace('"amount_total":990', '"amount_total":99');
    expect((await deliver(tampered, { "Stripe-Signature": header })).status).toBe(400);
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 10, purchasedCredits: 0 });
    expect((await purchasesOf(buyer.id))[0]!.status).toBe("open");
    expect(await ledgerOf(buyer.id)).toEqual([]);
  });

  it("accepts an event signed 4 minutes ago (inside the tolerance)", async () => {
    const buyer = await learnerWithOpenPurchase("50");
    const payload = eventOf(
      "checkout.session.completed",
      sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "paid" }, buyer.paymentIntent),
    );
    const answer = await deliver(payload, { "Stripe-Signature": await signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 240 }) });
    expect(answer.status).toBe(200);
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(60);
  });

  it("answers 415 to a body that is not JSON and 400 when no secret is configured", async () => {
    const buyer = await learnerWithOpenPurchase("50");
    const payload = eventOf(
      "checkout.session.completed",
      sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "paid" }, buyer.paymentIntent),
    );
    const asForm = await call(() =>
      webhook.action(
        args(
          new Request("http://nika.test/api/stripe/webhook", {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: "a=b",
          }),
          contextFor(db, ENV),
        ),
      ),
    );
    expect(asForm.status).toBe(415);
    const header = await signed(payload);
    const unconfigured = await call(() =>
      webhook.action(
        args(
          new Request("http://nika.test/api/stripe/webhook", {
            method: "POST",
            headers: { "Content-Type": "application/json", "Stripe-Signature": header },
            body: payload,
          }),
          contextFor(db, { STRIPE_SECRET_KEY: "sk_test_unused" }),
        ),
      ),
    );
    expect(unconfigured.status).toBe(400);
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(10);
  });
});

describe("exactly once", () => {
  it("credits once under 20 concurrent deliveries of the same event (and reports the handling time)", async () => {
    const buyer = await learnerWithOpenPurchase("400", 0);
    const payload = eventOf(
      "checkout.session.completed",
      sessionObject(buyer.sessionId, buyer.id, "400", { payment_status: "paid" }, buyer.paymentIntent),
    );
    const header = await signed(payload);
    const times: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const started = performance.now();
        const answer = await deliver(payload, { "Stripe-Signature": header });
        times.push(performance.now() - started);
        return answer;
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.data.outcome === "credited")).toHaveLength(1);
    expect(answers.filter((a) => a.data.outcome === "already_settled")).toHaveLength(19);
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 400, purchasedCredits: 400 });
    expect((await ledgerOf(buyer.id)).filter((l) => l.reason.startsWith("purchase:"))).toHaveLength(1);
    times.sort((a, b) => a - b);
    console.log(`[billing] 20 concurrent deliveries: median ${times[9]!.toFixed(1)} ms, max ${times[19]!.toFixed(1)} ms (PGlite, in process)`);
  });

  it("a session with no purchase row is credited from OUR pack of its metadata, for its client_reference_id", async () => {
    const learner = await insertLearner(db, { credits: 5 });
    const sessionId = nextId("cs");
    const payload = eventOf("checkout.session.completed", sessionObject(sessionId, learner.id, "50", { payment_status: "paid" }, nextId("pi")));
    expect((await deliverSigned(payload)).data.outcome).toBe("credited");
    expect((await balanceOf(learner.id)).monthlyCredits).toBe(55);
    expect(await purchasesOf(learner.id)).toEqual([
      expect.objectContaining({ checkoutSessionId: sessionId, credits: 50, amountCents: 990, status: "paid" }),
    ]);
  });

  it("ignores a session whose amount or currency is not the pack's, an unknown pack and an unknown user", async () => {
    const buyer = await learnerWithOpenPurchase("150");
    const cheap = sessionObject(buyer.sessionId, buyer.id, "150", { payment_status: "paid", amount_total: 100 }, buyer.paymentIntent);
    expect((await deliverSigned(eventOf("checkout.session.completed", cheap))).data.outcome).toBe("ignored");
    const dollars = sessionObject(buyer.sessionId, buyer.id, "150", { payment_status: "paid", currency: "usd" }, buyer.paymentIntent);
    expect((await deliverSigned(eventOf("checkout.session.completed", dollars))).data.outcome).toBe("ignored");
    const learner = await insertLearner(db, { credits: 5 });
    const unknownPack = sessionObject(nextId("cs"), learner.id, "999", { payment_status: "paid", amount_total: 1 }, nextId("pi"));
    expect((await deliverSigned(eventOf("checkout.session.completed", unknownPack))).data.outcome).toBe("ignored");
    const nobody = sessionObject(nextId("cs"), "00000000-0000-4000-8000-000000000000", "50", { payment_status: "paid" }, nextId("pi"));
    expect((await deliverSigned(eventOf("checkout.session.completed", nobody))).data.outcome).toBe("ignored");
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(10);
    expect((await balanceOf(learner.id)).monthlyCredits).toBe(5);
    expect(await purchasesOf(learner.id)).toEqual([]);
  });

  it("acknowledges and ignores events it does not handle", async () => {
    const answer = await deliverSigned(eventOf("customer.created", { id: "cus_1", object: "customer" }));
    expect(answer).toMatchObject({ status: 200, data: { received: true, outcome: "ignored" } });
  });
});

describe("Pix", () => {
  it("is pending after checkout, then credited once when the payment succeeds", async () => {
    const buyer = await learnerWithOpenPurchase("50");
    const unpaid = sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "unpaid" }, buyer.paymentIntent);
    expect((await deliverSigned(eventOf("checkout.session.completed", unpaid))).data.outcome).toBe("pending");
    expect(await purchasesOf(buyer.id)).toEqual([expect.objectContaining({ status: "pending", paymentIntentId: buyer.paymentIntent })]);
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(10);

    const paid = sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "paid" }, buyer.paymentIntent);
    const succeeded = eventOf("checkout.session.async_payment_succeeded", paid);
    expect((await deliverSigned(succeeded)).data.outcome).toBe("credited");
    expect((await deliverSigned(succeeded)).data.outcome).toBe("already_settled");
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(60);
    expect((await purchasesOf(buyer.id))[0]!.status).toBe("paid");
  });

  it("out of order: a late 'completed (unpaid)' does not undo a payment that already succeeded", async () => {
    const buyer = await learnerWithOpenPurchase("50");
    const paid = sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "paid" }, buyer.paymentIntent);
    expect((await deliverSigned(eventOf("checkout.session.async_payment_succeeded", paid))).data.outcome).toBe("credited");
    const unpaid = sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "unpaid" }, buyer.paymentIntent);
    await deliverSigned(eventOf("checkout.session.completed", unpaid));
    expect((await purchasesOf(buyer.id))[0]!.status).toBe("paid");
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(60);
  });

  it("a Pix that fails is recorded as failed, with no credits", async () => {
    const buyer = await learnerWithOpenPurchase("150");
    const unpaid = sessionObject(buyer.sessionId, buyer.id, "150", { payment_status: "unpaid" }, buyer.paymentIntent);
    await deliverSigned(eventOf("checkout.session.completed", unpaid));
    expect((await deliverSigned(eventOf("checkout.session.async_payment_failed", unpaid))).data.outcome).toBe("recorded");
    expect((await purchasesOf(buyer.id))[0]!.status).toBe("failed");
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(10);
  });
});

describe("refunds", () => {
  const charge = (paymentIntent: string, amount: number, refunded: number) => ({
    id: nextId("ch"),
    object: "charge",
    amount,
    amount_refunded: refunded,
    currency: "brl",
    payment_intent: paymentIntent,
    refunded: refunded === amount,
  });

  async function paidBuyer(pack: "50" | "150", credits = 10) {
    const buyer = await learnerWithOpenPurchase(pack, credits);
    await deliverSigned(
      eventOf("checkout.session.completed", sessionObject(buyer.sessionId, buyer.id, pack, { payment_status: "paid" }, buyer.paymentIntent)),
    );
    return buyer;
  }

  it("a full refund takes the pack's credits back once and records it with the amount", async () => {
    const buyer = await paidBuyer("150");
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(160);
    const refund = eventOf("charge.refunded", charge(buyer.paymentIntent, 2490, 2490));
    expect((await deliverSigned(refund)).status).toBe(200);
    expect((await deliverSigned(refund)).status).toBe(200);
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 10, purchasedCredits: 0 });
    const [purchase] = await purchasesOf(buyer.id);
    expect(purchase).toMatchObject({ status: "refunded", refundedCredits: 150 });
    expect((await ledgerOf(buyer.id)).map((l) => [l.delta, l.reason, l.amountCents])).toEqual([
      [150, `purchase:${purchase!.id}`, 2490],
      [-150, `purchase_refund:${purchase!.id}`, -2490],
    ]);
  });

  it("never takes the balance below zero when the credits were already spent", async () => {
    const buyer = await paidBuyer("50", 0);
    expect((await spendCredits(db, buyer.id, 45, "chat_message")).ok).toBe(true);
    await deliverSigned(eventOf("charge.refunded", charge(buyer.paymentIntent, 990, 990)));
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 0, purchasedCredits: 0 });
    const refundEntry = (await ledgerOf(buyer.id)).at(-1)!;
    expect([refundEntry.delta, refundEntry.balanceAfter]).toEqual([-5, 0]);
  });

  it("a partial refund takes its share, and a later full refund the rest", async () => {
    const buyer = await paidBuyer("150");
    await deliverSigned(eventOf("charge.refunded", charge(buyer.paymentIntent, 2490, 830))); // a third
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(110);
    expect((await purchasesOf(buyer.id))[0]).toMatchObject({ status: "paid", refundedCredits: 50 });
    await deliverSigned(eventOf("charge.refunded", charge(buyer.paymentIntent, 2490, 2490)));
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(10);
    expect((await purchasesOf(buyer.id))[0]).toMatchObject({ status: "refunded", refundedCredits: 150 });
  });

  it("a refund for a payment we never credited changes nothing", async () => {
    const buyer = await learnerWithOpenPurchase("50");
    await deliverSigned(eventOf("charge.refunded", charge(buyer.paymentIntent, 990, 990)));
    await deliverSigned(eventOf("charge.refunded", charge(nextId("pi"), 990, 990)));
    expect((await balanceOf(buyer.id)).monthlyCredits).toBe(10);
    expect(await ledgerOf(buyer.id)).toEqual([]);
  });
});

describe("bought credits and the monthly renewal", () => {
  it("spending takes the monthly credits first, and the renewal keeps the bought ones still unspent", async () => {
    const buyer = await learnerWithOpenPurchase("50", 20);
    await deliverSigned(
      eventOf("checkout.session.completed", sessionObject(buyer.sessionId, buyer.id, "50", { payment_status: "paid" }, buyer.paymentIntent)),
    );
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 70, purchasedCredits: 50 });
    await spendCredits(db, buyer.id, 15, "chat_message"); // monthly part: 20 → 5
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 55, purchasedCredits: 50 });
    await spendCredits(db, buyer.id, 10, "chat_message"); // 5 monthly + 5 bought
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 45, purchasedCredits: 45 });
    const nextMonth = new Date(Date.now() + 40 * 24 * 60 * 60_000);
    expect(await renewCreditsIfDue(db, buyer.id, 50, nextMonth)).toBe(95);
    expect(await balanceOf(buyer.id)).toMatchObject({ monthlyCredits: 95, purchasedCredits: 45 });
  });
});
