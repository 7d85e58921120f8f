import { data, redirect, Form, Link, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { SubmitButton } from "~/components/button";
import { NoticeBox } from "~/components/notice";
import { confirmEmail, publicOrigin } from "~/features/auth/accounts.server";
import { resendEmailChange } from "~/features/auth/email-change.server";
import { AuthCard, DelayedRedirect, linkClass } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { createSession, getSessionUser } from "~/server/auth.server";
import { minutesLeft } from "~/server/rate-limit.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/confirm-email";

export const handle: RouteHandle = { access: "public" };

/** Spec §4: success redirects after 2 s to / (or /config after an e-mail change). */
const REDIRECT_DELAY_S = 2;

type State = { state: "success"; next: string } | { state: "expired"; kind: "signup" | "email_change" } | { state: "error"; message: string };

export const meta: Route.MetaFunction = () => [{ title: "Confirmação de email — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const token = params.get("token_hash") ?? params.get("token");
  const type = params.get("type") ?? "signup";
  if (!token || (type !== "signup" && type !== "email_change")) {
    return data<State>(
      { state: "error", message: "Parâmetros de confirmação não encontrados. Use o link enviado para o seu email." },
      { status: 400 },
    );
  }

  const outcome = await confirmEmail(context, token, type);
  if (outcome.status === "expired") return data<State>({ state: "expired", kind: outcome.kind }, { status: 410 });
  if (outcome.status === "invalid") {
    return data<State>({ state: "error", message: "Link de confirmação inválido ou já utilizado." }, { status: 400 });
  }
  const headers = new Headers();
  if (outcome.signIn) headers.append("Set-Cookie", await createSession(context, outcome.userId, request));
  // After an e-mail change: to /config when this browser is (now) signed in as that learner, else the
  // success page with its way back to the login.
  const signedIn = outcome.signIn || (await getSessionUser(request, context))?.id === outcome.userId;
  const next = outcome.kind === "signup" ? "/" : signedIn ? "/config" : "/email-change-verification";
  return data<State>({ state: "success", next }, { headers });
}

/**
 * "Reenviar" of an expired e-mail change link: a new link to the pending address of the signed-in
 * learner. Without a session the learner goes to /config (which asks to sign in first).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await getSessionUser(request, context);
  if (!user || user.accountType === "blocked") throw redirect("/config");
  const submission = await parseForm(request, z.object({ intent: z.literal("resend_email_change") }));
  if (submission.status !== "success") return data({ result: submission.reply(), code: null }, { status: 400 });
  const outcome = await resendEmailChange(context, user, publicOrigin(context, request));
  if (outcome.status === "sent") {
    return redirectWithToast(context.cloudflare.env, "/config", {
      type: "success",
      title: "Email reenviado",
      description: `Enviamos um novo link para ${outcome.email}.`,
    });
  }
  if (outcome.status === "rate_limited") {
    return data(
      {
        result: submission.reply({
          formErrors: ["Limite de emails excedido", `Aguarde ${minutesLeft(outcome.retryAfterMs)} minutos antes de tentar novamente.`],
        }),
        code: "rate_limited",
      },
      { status: 429 },
    );
  }
  return data(
    { result: submission.reply({ formErrors: ["Erro ao reenviar", "Não há alteração de email pendente."] }), code: outcome.status },
    { status: 409 },
  );
}

export default function ConfirmEmail() {
  const actionData = useActionData<typeof action>();
  const result = useLoaderData<typeof loader>();

  if (result.state === "success") {
    return (
      <AuthCard title="Email confirmado!">
        <DelayedRedirect to={result.next} seconds={REDIRECT_DELAY_S} />
        <NoticeBox notice={{ tone: "success", title: "Seu email foi confirmado com sucesso.", description: "Redirecionando..." }} />
        <Link className={linkClass} to={result.next}>
          Continuar
        </Link>
      </AuthCard>
    );
  }
  if (result.state === "expired") {
    return (
      <AuthCard title="Link expirado">
        <NoticeBox
          notice={{
            tone: "error",
            title: "Este link de confirmação expirou.",
            description: result.kind === "signup" ? "Informe seu email para receber um novo link." : "Peça um novo link para o seu novo email.",
          }}
        />
        {result.kind === "signup" ? (
          <Form method="post" action="/email-verification">
            <label htmlFor="resend-email" className="mb-1 block text-sm font-medium">
              Email
            </label>
            <input
              id="resend-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              className="mb-4 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-white"
            />
            <SubmitButton size="lg" className="w-full" pendingText="Reenviando...">
              Reenviar email de confirmação
            </SubmitButton>
          </Form>
        ) : (
          <Form method="post">
            <NoticeBox
              notice={
                actionData?.result.error?.[""]
                  ? { tone: "error", title: actionData.result.error[""][0]!, description: actionData.result.error[""][1] }
                  : null
              }
            />
            <input type="hidden" name="intent" value="resend_email_change" />
            <SubmitButton size="lg" className="w-full" pendingText="Reenviando...">
              Reenviar link de confirmação
            </SubmitButton>
            <p className="mt-4 text-center text-sm">
              <Link className={linkClass} to="/config">
                Ir para Configurações
              </Link>
            </p>
          </Form>
        )}
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Não foi possível confirmar">
      <NoticeBox notice={{ tone: "error", title: result.message }} />
      <Link className={linkClass} to="/signin">
        Ir para o login
      </Link>
    </AuthCard>
  );
}
