import { useEffect, useState } from "react";
import { data, redirect, Link, useActionData, useLoaderData, useNavigate } from "react-router";
import { Button, SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { type Notice, NoticeBox } from "~/components/notice";
import { publicOrigin, signUp } from "~/features/auth/accounts.server";
import { answerUnexpected, FAILURE_MESSAGES } from "~/features/auth/failure.server";
import { pendingEmailHeader } from "~/features/auth/pending-email.server";
import { PASSWORD_MIN, signupSchema } from "~/features/auth/schemas";
import { AuthCard, linkClass } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { redirectIfSignedIn } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { minutesLeft } from "~/server/rate-limit.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/signup";

export const handle: RouteHandle = { access: "guest" };

export const meta: Route.MetaFunction = () => [{ title: "Criar conta — Nika" }];

const SIGNUP_DISABLED: Notice = {
  tone: "info",
  title: "Cadastro temporariamente indisponível",
  description: "A criação de novas contas está desativada no momento. Tente novamente mais tarde.",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  await redirectIfSignedIn(request, context);
  const flags = await getFlags(context);
  return { signupEnabled: flags.signup_enabled };
}

type SignupRefusal = "disabled" | "rate_limited" | "email_exists" | "unexpected";

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, signupSchema);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }), code: null }, { status: 400 });
  }
  // Refusals travel as conform form errors ([title, description?]); the page branches on `code`.
  const reply = (code: SignupRefusal, status: number, formErrors: string[]) =>
    data({ result: submission.reply({ hideFields: ["password", "confirmPassword"], formErrors }), code }, { status });

  const { name, email, whatsapp, password } = submission.value;
  let outcome;
  try {
    outcome = await signUp(context, { name, email, whatsapp, password }, publicOrigin(context, request), request);
  } catch (error) {
    return answerUnexpected(error, { request, context }, () => reply("unexpected", 500, [FAILURE_MESSAGES.signup]));
  }
  switch (outcome.status) {
    case "disabled":
      return reply("disabled", 403, [SIGNUP_DISABLED.title, SIGNUP_DISABLED.description!]);
    case "rate_limited":
      return reply("rate_limited", 429, [`Aguarde ${minutesLeft(outcome.retryAfterMs)} minutos antes de tentar criar outra conta.`]);
    case "email_exists":
      return reply("email_exists", 409, ["Email já cadastrado"]);
    case "created":
      if (outcome.emailConfirmationRequired) {
        throw redirect("/email-verification", {
          headers: { "Set-Cookie": await pendingEmailHeader(context.cloudflare.env, email) },
        });
      }
      return redirectWithToast(
        context.cloudflare.env,
        "/",
        { type: "success", title: "Conta criada com sucesso!" },
        outcome.sessionCookie ? { headers: { "Set-Cookie": outcome.sessionCookie } } : undefined,
      );
  }
}

export default function SignUp() {
  const { signupEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(signupSchema, actionData?.result);
  const emailExists = actionData?.code === "email_exists";
  const askToSignIn = useDelayedFlag(emailExists, 1500);
  const [errorTitle, errorDescription] = form.errors ?? [];
  const navigate = useNavigate();

  if (!signupEnabled) {
    return (
      <AuthCard title="Criar conta">
        <NoticeBox notice={SIGNUP_DISABLED} />
        <Link className={linkClass} to="/signin">
          Voltar para o login
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Criar conta" subtitle="Comece a aprender inglês com a Nika hoje mesmo.">
      {errorTitle ? (
        <NoticeBox notice={{ tone: actionData?.code === "disabled" ? "info" : "error", title: errorTitle, description: errorDescription }}>
          {emailExists ? (
            <p className="mt-2">
              <Link className={linkClass} to="/signin">
                Ir para o login
              </Link>
            </p>
          ) : null}
        </NoticeBox>
      ) : null}
      {askToSignIn ? (
        <div role="dialog" aria-labelledby="go-signin-title" className="mb-4 rounded-lg border border-indigo-300 p-3 dark:border-indigo-700">
          <p id="go-signin-title" className="text-sm font-medium">
            Este email já tem uma conta. Deseja ir para o login?
          </p>
          <Button size="sm" onClick={() => navigate("/signin")} className="mt-2">
            Ir para o login
          </Button>
        </div>
      ) : null}
      <ConformForm form={form}>
        <Field meta={fields.name} label="Nome" autoComplete="name" placeholder="Seu nome" maxLength={100} />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" inputMode="email" placeholder="seu@email.com" />
        <Field meta={fields.whatsapp} label="WhatsApp" type="tel" autoComplete="tel" inputMode="tel" placeholder="+55 11 99999-9999" />
        <Field
          meta={fields.password}
          label="Senha"
          type="password"
          autoComplete="new-password"
          placeholder={`Mínimo ${PASSWORD_MIN} caracteres`}
          minLength={PASSWORD_MIN}
        />
        <Field
          meta={fields.confirmPassword}
          label="Confirmar senha"
          type="password"
          autoComplete="new-password"
          placeholder="Repita a senha"
          minLength={PASSWORD_MIN}
        />
        <p className="-mt-2 mb-4 text-xs text-slate-600 dark:text-slate-400">
          Use 8 ou mais caracteres com letras maiúsculas, minúsculas e números.
        </p>
        <SubmitButton size="lg" className="w-full" pendingText="Criando conta...">
          Criar conta
        </SubmitButton>
      </ConformForm>
      <p className="mt-6 text-center text-sm text-slate-700 dark:text-slate-300">
        Já tem uma conta?{" "}
        <Link className={linkClass} to="/signin">
          Entrar
        </Link>
      </p>
    </AuthCard>
  );
}

/** True `delayMs` after `active` became true (spec: ask about the login 1.5 s after "Email já cadastrado"). */
function useDelayedFlag(active: boolean, delayMs: number) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    setOn(false);
    if (!active) return;
    const timer = setTimeout(() => setOn(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return on;
}
