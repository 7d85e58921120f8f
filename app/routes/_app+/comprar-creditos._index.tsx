// /comprar-creditos: the credit packs on sale and the way to Stripe's checkout (spec §7 create-credit-checkout,
// §8). Reached from 'Comprar mais créditos' (credits dialog, account tab) and 'Assinar Agora'.
// Without JS the form posts and is redirected (303) to the checkout page; with JS the page opens it in a new tab.
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { publicOrigin } from "~/features/auth/accounts.server";
import { BILLING_TEXT } from "~/features/billing";
import { creditPacks, startCheckout } from "~/features/billing/checkout.server";
import { checkoutSchema } from "~/features/billing/schema";
import { PurchasePage, type CheckoutActionData } from "~/features/billing/ui/PurchasePage";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { isStripeConfigured } from "~/server/payments.server";
import { parseForm } from "~/server/request.server";
import type { Route } from "./+types/comprar-creditos._index";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: `${BILLING_TEXT.title} — Nika` }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return {
    packs: creditPacks(context),
    available: isStripeConfigured(context.cloudflare.env),
    balance: user.monthlyCredits,
    cancelled: new URL(request.url).searchParams.has("cancelado"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, checkoutSchema);
  const refuse = (status: number, code: string, formErrors: string[]) =>
    data<CheckoutActionData>({ result: submission.reply({ formErrors }), code }, { status });
  if (submission.status !== "success") return data<CheckoutActionData>({ result: submission.reply(), code: "invalid" }, { status: 400 });
  const pack = creditPacks(context).find((candidate) => candidate.id === submission.value.pack);
  if (!pack) return refuse(400, "unknown_pack", ["Escolha um pacote."]);

  const checkout = await startCheckout(context, user, pack, publicOrigin(context, request));
  switch (checkout.status) {
    case "ok":
      return submission.value.respond === "url" ? { result: submission.reply(), code: "ok", url: checkout.url } : redirect(checkout.url, 303);
    case "unavailable":
      return refuse(503, "unavailable", [BILLING_TEXT.unavailable, BILLING_TEXT.unavailableDetail]);
    case "rate_limited":
      return refuse(429, "rate_limited", [BILLING_TEXT.tooMany, `Aguarde ${checkout.minutes} minutos antes de tentar novamente.`]);
    case "failed":
      return refuse(502, "checkout_failed", [BILLING_TEXT.checkoutFailed]);
  }
}

export default function BuyCredits() {
  return <PurchasePage {...useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
