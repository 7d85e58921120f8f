// Payments: the one module that talks to Stripe (decision 0018). Checkout Sessions are created with the
// official `stripe` package over its fetch client (Workers have no Node http); webhook signatures are
// checked with its SubtleCrypto provider before a byte of the event is trusted. STRIPE_API_URL points
// the client at the local fake in tests.
import Stripe from "stripe";
import type { Env } from "./env";

export type { Stripe };

/** Stripe's default tolerance: a signed event older than this (or from the future) is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** A learner waits for the checkout page: fail fast rather than hang the purchase button. */
const STRIPE_TIMEOUT_MS = 10_000;

const clients = new WeakMap<object, Stripe>();

/** The Stripe client of this isolate (one per env object), or null when STRIPE_SECRET_KEY is unset. */
export function stripeClient(env: Env): Stripe | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  let client = clients.get(env);
  if (!client) {
    const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null;
    client = new Stripe(env.STRIPE_SECRET_KEY, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 1,
      timeout: STRIPE_TIMEOUT_MS,
      ...(api && {
        host: api.hostname,
        port: api.port || (api.protocol === "https:" ? 443 : 80),
        protocol: api.protocol === "http:" ? "http" : "https",
      }),
    });
    clients.set(env, client);
  }
  return client;
}

export const isStripeConfigured = (env: Env) => Boolean(env.STRIPE_SECRET_KEY);

let cryptoProvider: ReturnType<typeof Stripe.createSubtleCryptoProvider> | undefined;

/**
 * The event of a webhook delivery, or null when it is not Stripe's: no secret configured, no or a bad
 * `Stripe-Signature`, or a timestamp outside the tolerance. Only the raw body is verified — never a
 * re-serialised one.
 */
export async function verifyWebhookEvent(env: Env, payload: string | Uint8Array, signature: string | null): Promise<Stripe.Event | null> {
  if (!env.STRIPE_WEBHOOK_SECRET || !signature) return null;
  cryptoProvider ??= Stripe.createSubtleCryptoProvider();
  try {
    return await Stripe.webhooks.constructEventAsync(payload, signature, env.STRIPE_WEBHOOK_SECRET, WEBHOOK_TOLERANCE_SECONDS, cryptoProvider);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return null;
    throw error;
  }
}
