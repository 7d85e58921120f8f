// The credit packs and their "Comprar" buttons. One form; each button carries its pack. Without
// JavaScript it posts and the server redirects to Stripe's page. With JavaScript a blank tab is opened
// in the click (so pop-up blockers allow it), the session is created by a fetcher, and the tab is sent
// to the checkout URL; the button says 'Processando...' meanwhile and a failure is a toast.
import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, type FormEvent } from "react";
import { Form, Link, useFetcher } from "react-router";
import { Button, buttonVariants } from "~/components/button";
import { NoticeBox } from "~/components/notice";
import { toast } from "~/components/toast-store";
import { BILLING_TEXT, formatBRL, type CreditPack } from "../packs";

export type CheckoutActionData = { result: SubmissionResult<string[]>; code: string; url?: string };

export function PurchasePage({
  packs,
  available,
  balance,
  cancelled,
  actionData,
}: {
  packs: CreditPack[];
  available: boolean;
  balance: number;
  cancelled: boolean;
  actionData: CheckoutActionData | undefined;
}) {
  const fetcher = useFetcher<CheckoutActionData>();
  const checkoutTab = useRef<Window | null>(null);
  const busyPack = fetcher.state === "idle" ? null : fetcher.formData?.get("pack");

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const tab = checkoutTab.current;
    checkoutTab.current = null;
    const { url, result } = fetcher.data;
    if (url) {
      if (tab && !tab.closed) tab.location.href = url;
      else window.location.assign(url);
      return;
    }
    tab?.close();
    const [title, description] = result.error?.[""] ?? [BILLING_TEXT.checkoutFailed];
    toast({ type: "error", title: title ?? BILLING_TEXT.checkoutFailed, description });
  }, [fetcher.state, fetcher.data]);

  function openCheckout(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const form = new FormData(event.currentTarget, submitter);
    form.set("respond", "url");
    const tab = window.open("", "_blank");
    if (tab) tab.opener = null;
    checkoutTab.current = tab;
    fetcher.submit(form, { method: "post" });
  }

  const [errorTitle, errorDescription] = actionData?.result.error?.[""] ?? [];

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{BILLING_TEXT.title}</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        Seu saldo: <strong data-testid="purchase-balance">{balance === 1 ? "1 crédito" : `${balance} créditos`}</strong>. Créditos comprados não
        expiram na renovação mensal.
      </p>

      {cancelled ? (
        <NoticeBox className="mt-4" notice={{ tone: "info", title: BILLING_TEXT.cancelled, description: BILLING_TEXT.cancelledDetail }} />
      ) : null}
      {errorTitle ? <NoticeBox className="mt-4" notice={{ tone: "error", title: errorTitle, description: errorDescription }} /> : null}

      {available ? (
        <Form method="post" onSubmit={openCheckout} className="mt-6 grid gap-4 sm:grid-cols-3">
          {packs.map((pack) => (
            <section
              key={pack.id}
              aria-labelledby={`pacote-${pack.id}`}
              className="flex flex-col rounded-2xl border border-slate-200 p-5 dark:border-night-700"
              data-testid={`pack-${pack.id}`}
            >
              <h2 id={`pacote-${pack.id}`} className="text-xl font-bold">
                {pack.credits} créditos
              </h2>
              <p className="mt-1 text-2xl font-semibold text-indigo-700 dark:text-indigo-300">{formatBRL(pack.priceCents)}</p>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                {formatBRL(Math.round(pack.priceCents / pack.credits))} por crédito · {pack.credits} mensagens com a Nika
              </p>
              <Button
                type="submit"
                name="pack"
                value={pack.id}
                className="mt-4"
                disabled={busyPack !== null && busyPack !== undefined}
                aria-busy={busyPack === pack.id || undefined}
                aria-label={`${BILLING_TEXT.buy} ${pack.credits} créditos por ${formatBRL(pack.priceCents)}`}
              >
                {busyPack === pack.id ? BILLING_TEXT.working : BILLING_TEXT.buy}
              </Button>
            </section>
          ))}
        </Form>
      ) : (
        <NoticeBox className="mt-6" notice={{ tone: "info", title: BILLING_TEXT.unavailable, description: BILLING_TEXT.unavailableDetail }} />
      )}

      <p className="mt-6 text-sm text-slate-600 dark:text-slate-300">
        O pagamento é feito na página segura da Stripe, com cartão ou Pix. Os créditos entram assim que o pagamento é confirmado.
      </p>
      <Link to="/config#creditos" className={buttonVariants({ variant: "secondary", size: "sm", className: "mt-4" })}>
        Ver histórico de créditos
      </Link>
    </div>
  );
}
