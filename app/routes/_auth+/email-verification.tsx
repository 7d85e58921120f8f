import { useEffect, useState } from "react";
import { data, redirect, Form, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { SubmitButton } from "~/components/button";
import { NoticeBox } from "~/components/notice";
import { publicOrigin, resendVerification, secondsUntilResend } from "~/features/auth/accounts.server";
import { answerUnexpected, FAILURE_MESSAGES } from "~/features/auth/failure.server";
import { pendingEmailHeader, readPendingEmail } from "~/features/auth/pending-email.server";
import { emailOnlySchema } from "~/features/auth/schemas";
import { AuthCard, BackToSignIn } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { secondsLeft } from "~/server/rate-limit.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/email-verification";

export const handle: RouteHandle = { access: "public" };

export const meta: Route.MetaFunction = () => [{ title: "Confirme seu email — Nika" }];

/** Spec §4: the resend countdown restarts at 45 s, or at the server's wait plus 5 s. */
const RESEND_COUNTDOWN_S = 45;
const RATE_LIMIT_MARGIN_S = 5;

export async function loader({ request, context }: Route.LoaderArgs) {
  const email = await readPendingEmail(context.cloudflare.env, request);
  if (!email) throw redirect("/signup");
  return { email, waitSeconds: await secondsUntilResend(context, email) };
}

/** A posted address that is not a valid e-mail counts as none (the cookie's address is used). */
const resendSchema = z.object({ email: emailOnlySchema.shape.email.optional().catch(undefined) });

export async function action({ request, context }: Route.ActionArgs) {
  // The expired-link screen posts the address; otherwise it comes from the pending-email cookie.
  const submission = await parseForm(request, resendSchema);
  const posted = submission.status === "success" ? submission.value.email : undefined;
  const email = posted ?? (await readPendingEmail(context.cloudflare.env, request));
  if (!email) throw redirect("/signup");

  let outcome;
  try {
    outcome = await resendVerification(context, email, publicOrigin(context, request));
  } catch (error) {
    // The e-mail did not go: the button comes back at once (the server's own limit still applies).
    return answerUnexpected(error, { request, context }, () =>
      data({ error: FAILURE_MESSAGES.resendVerification, waitSeconds: 0 }, { status: 500 }),
    );
  }
  if (outcome.status === "rate_limited") {
    const seconds = secondsLeft(outcome.retryAfterMs);
    return data(
      { error: `Por segurança, aguarde ${seconds} segundos antes de tentar novamente.`, waitSeconds: seconds + RATE_LIMIT_MARGIN_S },
      { status: 429 },
    );
  }
  return redirectWithToast(
    context.cloudflare.env,
    "/email-verification",
    { type: "success", title: "Email reenviado", description: "Confira sua caixa de entrada." },
    { headers: { "Set-Cookie": await pendingEmailHeader(context.cloudflare.env, email) } },
  );
}

export default function EmailVerification() {
  const { email, waitSeconds } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The server's own wait (0 when a resend is allowed now) is what the first render shows, so the
  // button is disabled without JavaScript too; with JavaScript the spec's countdown takes over.
  const serverWait = actionData?.waitSeconds ?? waitSeconds;
  const restartAt = serverWait > 0 || actionData?.error ? serverWait : RESEND_COUNTDOWN_S;
  const remaining = useCountdown(serverWait, restartAt, actionData ?? waitSeconds);

  return (
    <AuthCard
      title="Confirme seu email"
      subtitle={
        <>
          Enviamos um link de confirmação para <strong className="text-slate-900 dark:text-white">{email}</strong>.
        </>
      }
    >
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        Abra o email e clique no link para ativar sua conta. Não encontrou? Verifique a caixa de spam.
      </p>
      {actionData?.error ? <NoticeBox notice={{ tone: "error", title: actionData.error }} /> : null}
      {serverWait > 0 ? (
        // Without JavaScript nothing counts down: reload when the wait is over, so the button comes back.
        <noscript>
          <meta httpEquiv="refresh" content={String(serverWait)} />
        </noscript>
      ) : null}
      <Form method="post">
        <SubmitButton size="lg" className="w-full" pendingText="Reenviando..." disabled={remaining > 0}>
          {remaining > 0 ? `Reenviar email em ${remaining}s` : "Reenviar email"}
        </SubmitButton>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}

/**
 * Seconds left before a resend is allowed: `initialSeconds` on the server render (the server's own
 * wait), then counting down from `startSeconds` in the browser.
 */
function useCountdown(initialSeconds: number, startSeconds: number, restartKey: unknown) {
  const [remaining, setRemaining] = useState(initialSeconds);
  useEffect(() => {
    const endsAt = Date.now() + startSeconds * 1000;
    const tick = () => setRemaining(Math.max(0, Math.ceil((endsAt - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [startSeconds, restartKey]);
  return remaining;
}
