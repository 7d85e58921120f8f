// Stopping the reminder e-mails from the link every reminder carries, without signing in: the signed token says whose
// they are. GET only shows the button (link scanners open links); the POST — this page's form, or the mail client's
// RFC 8058 one-click POST (body List-Unsubscribe=One-Click) to the same URL — turns them off.
import { data, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { SignedLinkPage } from "~/features/auth/ui/SignedLinkPage";
import { stopReminders, unsubscribeTokenUser } from "~/features/reminders";
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

const TEXTS = {
  ready: {
    title: "Cancelar lembretes",
    subtitle: "Você deixará de receber o email diário que lembra de praticar e manter a sua ofensiva.",
    button: "Cancelar lembretes",
    pending: "Cancelando...",
  },
  done: {
    title: "Lembretes cancelados",
    notice: "Você não vai mais receber lembretes diários por email.",
    description: "Se mudar de ideia, ative o Lembrete diário em Configurações.",
  },
  invalidTitle: "Não foi possível cancelar",
};

export default function CancelReminders() {
  const page = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const result = done ?? page;
  return <SignedLinkPage result={result.state === "stopped" ? { state: "done" } : result} path="/lembretes/cancelar" texts={TEXTS} />;
}
