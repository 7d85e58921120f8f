// Buying credit packs: the Checkout Session a learner is sent to, the webhook events that settle it and
// the page the learner comes back to. Credits and prices always come from our pack definition and the
// row written when the session was created — never from the browser. See decision 0018.
import { and, eq, inArray } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { isUuid } from "~/lib/ids";
import { forgetUserSessions } from "~/server/auth.server";
import { creditPaidPurchase, takeBackRefundedPurchase } from "~/server/credits.server";
import { stripeClient, type Stripe } from "~/server/payments.server";
import { claimAttempt, LIMITS, minutesLeft } from "~/server/rate-limit.server";
import { users } from "~/server/schema";
import { BILLING_TEXT, CURRENCY, parseCreditPacks, type CreditPack } from "./packs";
import { creditPurchases } from "./tables";

export const RETURN_PATH = "/comprar-creditos/retorno";
export const PURCHASE_PATH = "/comprar-creditos";

export function creditPacks(context: AppLoadContext): CreditPack[] {
  return parseCreditPacks(context.cloudflare.env.CREDIT_PACKS);
}

export type CheckoutResult =
  { status: "ok"; url: string } | { status: "unavailable" } | { status: "rate_limited"; minutes: number } | { status: "failed"; reason: string };

/**
 * Creates the Stripe Checkout Session for `pack` (mode payment, BRL; card and Pix as the Stripe account
 * allows — no payment_method_types, so the Dashboard's settings decide) and records it as an open
 * purchase of this user. Rate-limited per user.
 */
export async function startCheckout(
  context: AppLoadContext,
  user: { id: string; email: string },
  pack: CreditPack,
  origin: string,
): Promise<CheckoutResult> {
  const stripe = stripeClient(context.cloudflare.env);
  if (!stripe) return { status: "unavailable" };
  const claim = await claimAttempt(context.db, LIMITS.checkout, user.id);
  if (!claim.allowed) return { status: "rate_limited", minutes: minutesLeft(claim.retryAfterMs) };

  let session: Stripe.Checkout.Session;
  try {
    const metadata = { pack: pack.id, user_id: user.id };
    session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: { currency: CURRENCY, unit_amount: pack.priceCents, product_data: { name: `${pack.credits} créditos Nika` } },
        },
      ],
      client_reference_id: user.id,
      customer_email: user.email,
      metadata,
      payment_intent_data: { metadata },
      locale: "pt-BR",
      success_url: `${origin}${RETURN_PATH}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}${PURCHASE_PATH}?cancelado=1`,
    });
  } catch (error) {
    console.error("checkout: Stripe refused the session", error instanceof Error ? error.message : error);
    return { status: "failed", reason: "stripe_error" };
  }
  if (!session.url) {
    console.error("checkout:", BILLING_TEXT.noCheckoutUrl, session.id);
    return { status: "failed", reason: BILLING_TEXT.noCheckoutUrl };
  }
  await context.db.insert(creditPurchases).values({
    userId: user.id,
    checkoutSessionId: session.id,
    packId: pack.id,
    credits: pack.credits,
    amountCents: pack.priceCents,
    currency: CURRENCY,
  });
  return { status: "ok", url: session.url };
}

// ——— settling a session (webhook events and the return page) ———

/** credited: the credits went in now · already_settled: an earlier delivery did it · recorded: a state change without credits. */
export type SettleOutcome = "credited" | "already_settled" | "pending" | "recorded" | "ignored";

/**
 * What a Checkout Session in this state means for its purchase: paid → the pack's credits, once;
 * complete but unpaid (Pix waiting) → pending. The purchase is found by the session id; a session
 * we have no row for (its insert failed after Stripe created it) is rebuilt from its metadata and
 * client_reference_id, with the credits and price of OUR pack of that id.
 */
export async function settleCheckoutSession(context: AppLoadContext, session: Stripe.Checkout.Session): Promise<SettleOutcome> {
  if (session.mode !== "payment") return "ignored";
  const purchase = await purchaseFor(context, session);
  if (!purchase) return "ignored";
  if (session.amount_total !== purchase.amountCents || session.currency !== purchase.currency) {
    console.error("checkout: amount or currency differs from the pack", session.id, session.amount_total, session.currency);
    return "ignored";
  }
  const paymentIntentId = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  if (session.payment_status === "paid") {
    const balance = await creditPaidPurchase(context.db, { ...purchase, checkoutSessionId: session.id, paymentIntentId });
    if (balance === null) return "already_settled";
    forgetUserSessions(context, purchase.userId);
    return "credited";
  }
  if (session.status === "complete") {
    const moved = await context.db
      .update(creditPurchases)
      .set({ status: "pending", paymentIntentId, updatedAt: new Date() })
      .where(and(eq(creditPurchases.checkoutSessionId, session.id), eq(creditPurchases.status, "open")))
      .returning({ id: creditPurchases.id });
    if (moved.length === 0 && !purchase.stored) {
      await context.db
        .insert(creditPurchases)
        .values({ ...purchase, checkoutSessionId: session.id, status: "pending", paymentIntentId })
        .onConflictDoNothing();
    }
    return "pending";
  }
  return "ignored";
}

async function purchaseFor(context: AppLoadContext, session: Stripe.Checkout.Session) {
  const [stored] = await context.db
    .select({
      userId: creditPurchases.userId,
      packId: creditPurchases.packId,
      credits: creditPurchases.credits,
      amountCents: creditPurchases.amountCents,
      currency: creditPurchases.currency,
    })
    .from(creditPurchases)
    .where(eq(creditPurchases.checkoutSessionId, session.id));
  if (stored) return { ...stored, stored: true };
  const userId = session.client_reference_id;
  const pack = creditPacks(context).find((candidate) => candidate.id === session.metadata?.pack);
  if (!userId || !isUuid(userId) || !pack) return null;
  const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) return null;
  return { userId, packId: pack.id, credits: pack.credits, amountCents: pack.priceCents, currency: CURRENCY, stored: false };
}

/** A Pix that never settled, or a session that expired unpaid: the purchase records it (no credits move). */
async function closeUnpaid(context: AppLoadContext, sessionId: string, status: "failed" | "expired") {
  await context.db
    .update(creditPurchases)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(creditPurchases.checkoutSessionId, sessionId), inArray(creditPurchases.status, ["open", "pending"])));
}

/** The webhook's dispatcher: events we do not act on are acknowledged and ignored. */
export async function handleStripeEvent(context: AppLoadContext, event: Stripe.Event): Promise<SettleOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return settleCheckoutSession(context, event.data.object);
    case "checkout.session.async_payment_failed":
      await closeUnpaid(context, event.data.object.id, "failed");
      return "recorded";
    case "checkout.session.expired":
      await closeUnpaid(context, event.data.object.id, "expired");
      return "recorded";
    case "charge.refunded": {
      const charge = event.data.object;
      const paymentIntentId = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      if (!paymentIntentId) return "ignored";
      const { userId } = await takeBackRefundedPurchase(context.db, {
        paymentIntentId,
        amountCharged: charge.amount,
        amountRefunded: charge.amount_refunded,
      });
      if (userId) forgetUserSessions(context, userId);
      return "recorded";
    }
    default:
      return "ignored";
  }
}

export type ReturnStatus = { status: "paid" | "pending" | "unpaid"; credits: number } | null;

/**
 * The learner is back from Stripe's page. The webhook may not have landed yet: an open purchase is
 * looked up at Stripe and settled here (the same once-only path), so the toast can say the truth.
 */
export async function purchaseOnReturn(context: AppLoadContext, userId: string, sessionId: string): Promise<ReturnStatus> {
  const find = async () => {
    const [row] = await context.db
      .select({ status: creditPurchases.status, credits: creditPurchases.credits })
      .from(creditPurchases)
      .where(and(eq(creditPurchases.checkoutSessionId, sessionId), eq(creditPurchases.userId, userId)));
    return row;
  };
  let purchase = await find();
  if (!purchase) return null;
  const stripe = stripeClient(context.cloudflare.env);
  if ((purchase.status === "open" || purchase.status === "pending") && stripe) {
    try {
      await settleCheckoutSession(context, await stripe.checkout.sessions.retrieve(sessionId));
      purchase = (await find()) ?? purchase;
    } catch (error) {
      // The webhook will settle it; the learner is told it is being processed.
      console.warn("checkout: could not look the session up on return", error instanceof Error ? error.message : error);
    }
  }
  const status =
    purchase.status === "paid" || purchase.status === "refunded"
      ? "paid"
      : purchase.status === "open" || purchase.status === "pending"
        ? "pending"
        : "unpaid";
  return { status, credits: purchase.credits };
}
