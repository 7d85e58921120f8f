// Stripe's success_url: back from the checkout page. Says whether the credits are in (the webhook landed,
// or the session is settled here), or the Pix payment is still being processed; then the account tab.
import type { LoaderFunctionArgs } from "react-router";
import { BILLING_TEXT } from "~/features/billing";
import { PURCHASE_PATH, purchaseOnReturn } from "~/features/billing/checkout.server";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { redirectWithToast } from "~/server/toast.server";

export const handle: RouteHandle = { access: "user" };

const ACCOUNT_TAB = "/config?tab=conta";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  const purchase = /^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId) ? await purchaseOnReturn(context, user.id, sessionId) : null;
  if (!purchase)
    return redirectWithToast(context.cloudflare.env, PURCHASE_PATH, {
      type: "error",
      title: BILLING_TEXT.notCompleted,
      description: BILLING_TEXT.notCompletedDetail,
    });
  switch (purchase.status) {
    case "paid":
      return redirectWithToast(context.cloudflare.env, ACCOUNT_TAB, {
        type: "success",
        title: BILLING_TEXT.added,
        description: `+${purchase.credits} créditos`,
      });
    case "pending":
      return redirectWithToast(context.cloudflare.env, ACCOUNT_TAB, {
        type: "info",
        title: BILLING_TEXT.processing,
        description: BILLING_TEXT.processingDetail,
      });
    case "unpaid":
      return redirectWithToast(context.cloudflare.env, PURCHASE_PATH, {
        type: "error",
        title: BILLING_TEXT.notCompleted,
        description: BILLING_TEXT.notCompletedDetail,
      });
  }
}
