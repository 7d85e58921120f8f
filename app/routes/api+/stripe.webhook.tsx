// POST /api/stripe/webhook — Stripe's events. The signature is checked on the raw body before anything
// is read from it; a bad one is a 400 and nothing is stored. Handled events settle purchases exactly once
// (features/billing); every other verified event is acknowledged (200) and ignored.
import type { ActionFunctionArgs } from "react-router";
import { handleStripeEvent } from "~/features/billing/checkout.server";
import type { RouteHandle } from "~/lib/access";
import { verifyWebhookEvent } from "~/server/payments.server";
import { methodNotAllowed, readBytes, refusal } from "~/server/request.server";

export const handle: RouteHandle = { access: "public" };

/** Stripe's events are a few KB; a Checkout Session with its line items stays far below this. */
const MAX_EVENT_BYTES = 512 * 1024;

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { bytes } = await readBytes(request, { maxBytes: MAX_EVENT_BYTES, accept: ["json"] });
  const event = await verifyWebhookEvent(context.cloudflare.env, bytes, request.headers.get("Stripe-Signature"));
  if (!event) return refusal(400, "Assinatura do webhook inválida.", "bad_signature");
  const outcome = await handleStripeEvent(context, event);
  return Response.json({ received: true, outcome });
}

export const loader = methodNotAllowed;
