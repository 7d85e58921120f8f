import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "~/components/button";
import { NoticeBox } from "~/components/notice";
import { confirmEmail } from "~/features/auth/accounts.server";
import { AuthCard, DelayedRedirect, linkClass } from "~/features/auth/ui";
import type { RouteHandle } from "~/lib/access";
import { createSession } from "~/server/auth.server";

export const handle: RouteHandle = { access: "public" };

/** Spec §4: success redirects after 2 s to / (or /config after an e-mail change). */
const REDIRECT_DELAY_S = 2;

type State = { state: "success"; next: string } | { state: "expired"; kind: "signup" | "email_change" } | { state: "error"; message: string };

export const meta: MetaFunction = () => [{ title: "Confirmação de email — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
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
  const next = outcome.kind === "email_change" ? "/config" : "/";
  const headers = new Headers();
  if (outcome.signIn) headers.append("Set-Cookie", await createSession(context, outcome.userId, request));
  return data<State>({ state: "success", next }, { headers });
}

export default function ConfirmEmail() {
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
          notice={{ tone: "error", title: "Este link de confirmação expirou.", description: "Informe seu email para receber um novo link." }}
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
          <Link className={linkClass} to="/config">
            Solicitar a alteração novamente em Configurações
          </Link>
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
