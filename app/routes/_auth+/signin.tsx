import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Link, useActionData, useLoaderData } from "react-router";
import { buttonVariants, SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { NoticeBox } from "~/components/notice";
import { createAuthenticator, InvalidCredentialsError } from "~/features/auth/authenticator.server";
import { answerUnexpected, FAILURE_MESSAGES } from "~/features/auth/failure.server";
import { googleSignInAvailable } from "~/features/auth/google.server";
import { pendingEmailHeader } from "~/features/auth/pending-email.server";
import { signinSchema } from "~/features/auth/schemas";
import { AuthCard, linkClass } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { whenSettled } from "~/lib/when-settled";
import { createSession, redirectIfSignedIn, safeRedirect } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { claimAttempt, clearAttempts, LIMITS, minutesLeft, releaseAttempt } from "~/server/rate-limit.server";
import { readFormData } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/signin";

export const handle: RouteHandle = { access: "guest" };

export const meta: Route.MetaFunction = () => [{ title: "Entrar — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await redirectIfSignedIn(request, context);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  // Google only when configured and the flag enable_account_creation_on_signin is on (its routes 404 otherwise).
  return { redirectTo: safeRedirect(redirectTo, ""), googleEnabled: await googleSignInAvailable(context) };
}

type SigninRefusal = "rate_limited" | "invalid_credentials" | "email_not_confirmed" | "unexpected";

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: signinSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), code: null }, { status: 400 });
  const { email, redirectTo } = submission.value;
  // Refusals travel as conform form errors ([title, description]); the page branches on `code`.
  const reply = (code: SigninRefusal, status: number, formErrors: string[], headers?: HeadersInit) =>
    data({ result: submission.reply({ hideFields: ["password"], formErrors }), code }, { status, headers });

  // An unexpected failure while the credentials are checked is the spec's 'Erro ao fazer login…'; one
  // after they were accepted (the flags, the new session) its 'Erro inesperado…'.
  let failure: string = FAILURE_MESSAGES.signin;
  try {
    // Every check of a password is claimed first, so a burst cannot try more than the limit; a right one is given back.
    const claim = await claimAttempt(context.db, LIMITS.signin, email);
    if (!claim.allowed) {
      return reply("rate_limited", 429, ["Muitas tentativas", `Aguarde ${minutesLeft(claim.retryAfterMs)} minutos antes de tentar novamente.`]);
    }
    // The body is read once (above); the strategy gets the same fields.
    const user = await createAuthenticator(context)
      .authenticate("form", new Request(request.url, { method: "POST", body: formData }))
      .catch((error: unknown) => {
        if (error instanceof InvalidCredentialsError) return null;
        throw error;
      });
    if (!user) return reply("invalid_credentials", 401, ["Email ou senha incorretos. Tente novamente."]);
    await releaseAttempt(context.db, claim);

    failure = FAILURE_MESSAGES.unexpected;
    const flags = await getFlags(context);
    if (flags.email_confirmation_required && !user.emailConfirmedAt) {
      return reply(
        "email_not_confirmed",
        403,
        ["Email não confirmado", "Verifique sua caixa de entrada e clique no link de confirmação que enviamos."],
        { "Set-Cookie": await pendingEmailHeader(context.cloudflare.env, email) },
      );
    }

    const sessionCookie = await context.db.transaction(async (tx) => {
      await clearAttempts(tx, LIMITS.signin, email);
      return createSession(context, user.id, request, tx);
    });
    return redirectWithToast(
      context.cloudflare.env,
      safeRedirect(redirectTo),
      { type: "success", title: "Login realizado com sucesso!" },
      { headers: { "Set-Cookie": sessionCookie } },
    );
  } catch (error) {
    return answerUnexpected(error, { request, context }, () => reply("unexpected", 500, [failure]));
  }
}

export default function SignIn() {
  const { redirectTo, googleEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(signinSchema, actionData?.result);
  const [errorTitle, errorDescription] = form.errors ?? [];
  // Signed out: the offline player and the sync stop acting for the last learner.
  useEffect(
    () =>
      whenSettled(() => {
        import("~/features/offline").then(
          ({ unmarkAccount }) => unmarkAccount(),
          () => {},
        );
      }),
    [],
  );

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
        <>
          <p className="my-4 flex items-center gap-3 text-xs text-slate-600 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200 dark:text-slate-400 dark:before:bg-night-700 dark:after:bg-night-700">
            ou
          </p>
          {/* A plain link: the browser itself goes to Google and back (no JavaScript needed). */}
          <a
            href={redirectTo ? `/auth/google?redirectTo=${encodeURIComponent(redirectTo)}` : "/auth/google"}
            className={buttonVariants({ variant: "secondary", size: "lg", className: "w-full" })}
          >
            <GoogleLogo />
            Entrar com Google
          </a>
        </>
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

/** Google's "G" (its sign-in branding asks for the logo on the button). */
function GoogleLogo() {
  return (
    <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 48 48">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}
