// Stopping the reminder e-mails from the link every reminder carries, without signing in: the signed token says whose
// they are. GET only shows the button (link scanners open links); the POST — this page's form, or the mail client's
// RFC 8058 one-click POST (body List-Unsubscribe=One-Click) to the same URL — turns them off.
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { SubmitButton } from "~/components/button";
import { NoticeBox } from "~/components/notice";
import { AuthCard, linkClass } from "~/features/auth/ui";
import { stopReminders, unsubscribeTokenUser } from "~/features/reminders/reminders.server";
import type { RouteHandle } from "~/lib/access";
import { parseForm } from "~/server/request.server";
import type { Route } from "./+types/lembretes.cancelar";

export const handle: RouteHandle = { access: "public" };

export const meta: Route.MetaFunction = () => [{ title: "Cancelar lembretes — Nika" }, { name: "robots", content: "noindex" }];

const INVALID = {
  state: "invalid",
  message: "Link inválido. Use o link do último email de lembrete, ou desative o lembrete em Configurações.",
} as const;

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request);
  if (!(await unsubscribeTokenUser(context.cloudflare.env, token))) return data(INVALID, { status: 400 });
  return { state: "ready" as const, token };
}

/** The form sends nothing but the button; the one-click POST sends List-Unsubscribe=One-Click. */
const schema = z.object({ "List-Unsubscribe": z.literal("One-Click").optional() });

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, schema);
  if (submission.status !== "success") return data(INVALID, { status: 400 });
  if (!(await stopReminders(context.db, context.cloudflare.env, tokenOf(request)))) return data(INVALID, { status: 400 });
  return { state: "stopped" as const };
}

export default function CancelReminders() {
  const page = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const result = done ?? page;

  if (result.state === "stopped") {
    return (
      <AuthCard title="Lembretes cancelados">
        <NoticeBox
          notice={{
            tone: "success",
            title: "Você não vai mais receber lembretes diários por email.",
            description: "Se mudar de ideia, ative o Lembrete diário em Configurações.",
          }}
        />
        <Link className={linkClass} to="/">
          Ir para a Nika
        </Link>
      </AuthCard>
    );
  }
  if (result.state === "invalid") {
    return (
      <AuthCard title="Não foi possível cancelar">
        <NoticeBox notice={{ tone: "error", title: result.message }} />
        <Link className={linkClass} to="/config">
          Ir para Configurações
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Cancelar lembretes" subtitle="Você deixará de receber o email diário que lembra de praticar e manter a sua ofensiva.">
      <Form method="post" action={`/lembretes/cancelar?token=${encodeURIComponent(result.token)}`}>
        <SubmitButton size="lg" className="w-full" pendingText="Cancelando...">
          Cancelar lembretes
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
