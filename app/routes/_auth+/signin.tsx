import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { NoticeBox } from "~/components/notice";
import { pendingEmailHeader } from "~/features/auth/pending-email.server";
import { signinSchema } from "~/features/auth/schemas";
import { AuthCard, linkClass } from "~/features/auth/ui";
import type { RouteHandle } from "~/lib/access";
import { createAuthenticator, createSession, InvalidCredentialsError, redirectIfSignedIn, safeRedirect } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { checkLimit, clearAttempts, LIMITS, minutesLeft, recordAttempt } from "~/server/rate-limit.server";
import { readFormData } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";

export const handle: RouteHandle = { access: "guest" };

export const meta: MetaFunction = () => [{ title: "Entrar — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  const flags = await getFlags(context);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return { redirectTo: safeRedirect(redirectTo, ""), googleEnabled: flags.enable_account_creation_on_signin };
}

type SigninRefusal = "rate_limited" | "invalid_credentials" | "email_not_confirmed";

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: signinSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), code: null }, { status: 400 });
  const { email, redirectTo } = submission.value;
  // Refusals travel as conform form errors ([title, description]); the page branches on `code`.
  const reply = (code: SigninRefusal, status: number, formErrors: string[], headers?: HeadersInit) =>
    data({ result: submission.reply({ hideFields: ["password"], formErrors }), code }, { status, headers });

  const limit = await checkLimit(context.db, LIMITS.signin, email);
  if (!limit.allowed) {
    return reply("rate_limited", 429, ["Muitas tentativas", `Aguarde ${minutesLeft(limit.retryAfterMs)} minutos antes de tentar novamente.`]);
  }

  let user;
  try {
    // The body is read once (above); the strategy gets the same fields.
    user = await createAuthenticator(context).authenticate("form", new Request(request.url, { method: "POST", body: formData }));
  } catch (error) {
    if (!(error instanceof InvalidCredentialsError)) throw error;
    await recordAttempt(context.db, LIMITS.signin, email);
    return reply("invalid_credentials", 401, ["Email ou senha incorretos. Tente novamente."]);
  }

  const flags = await getFlags(context);
  if (flags.email_confirmation_required && !user.emailConfirmedAt) {
    return reply(
      "email_not_confirmed",
      403,
      ["Email não confirmado", "Verifique sua caixa de entrada e clique no link de confirmação que enviamos."],
      { "Set-Cookie": await pendingEmailHeader(context.cloudflare.env, email) },
    );
  }

  await clearAttempts(context.db, LIMITS.signin, email);
  const sessionCookie = await createSession(context, user.id, request);
  return redirectWithToast(
    safeRedirect(redirectTo),
    { type: "success", title: "Login realizado com sucesso!" },
    { headers: { "Set-Cookie": sessionCookie } },
  );
}

export default function SignIn() {
  const { redirectTo, googleEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(signinSchema, actionData?.result);
  const [errorTitle, errorDescription] = form.errors ?? [];

  return (
    <AuthCard title="Entrar" subtitle="Bem-vindo(a) de volta! Continue praticando seu inglês com a Nika.">
      {errorTitle ? (
        <NoticeBox notice={{ tone: "error", title: errorTitle, description: errorDescription }}>
          {actionData?.code === "email_not_confirmed" ? (
            <p className="mt-2">
              <Link className={linkClass} to="/email-verification">
                Reenviar email de confirmação
              </Link>
            </p>
          ) : null}
        </NoticeBox>
      ) : null}
      <ConformForm form={form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" inputMode="email" placeholder="seu@email.com" />
        <Field meta={fields.password} label="Senha" type="password" autoComplete="current-password" placeholder="Sua senha" />
        <p className="-mt-2 mb-4 text-right text-sm">
          <Link className={linkClass} to="/forgot-password">
            Esqueceu a senha?
          </Link>
        </p>
        <SubmitButton size="lg" className="w-full" pendingText="Entrando...">
          Entrar
        </SubmitButton>
      </ConformForm>
      {googleEnabled ? (
        // Google sign-in arrives with its own issue; its place is kept here.
        <p className="mt-4 text-center text-xs text-slate-600 dark:text-slate-400">Login com Google em breve.</p>
      ) : null}
      <p className="mt-6 text-center text-sm text-slate-700 dark:text-slate-300">
        Não tem uma conta?{" "}
        <Link className={linkClass} to="/signup">
          Criar conta
        </Link>
      </p>
    </AuthCard>
  );
}
