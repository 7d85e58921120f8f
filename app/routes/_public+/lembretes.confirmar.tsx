// "Quer receber lembretes?": the link of the one mail an address gets before any reminder. GET only shows the button
// (link scanners open links); the POST confirms the address the token was signed for, while it is still the account's.
import { data, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { SignedLinkPage } from "~/features/auth/ui/SignedLinkPage";
import { confirmReminders, confirmTokenValid } from "~/features/reminders";
import type { RouteHandle } from "~/lib/access";
import { parseForm } from "~/server/request.server";
import type { Route } from "./+types/lembretes.confirmar";

export const handle: RouteHandle = { access: "public" };

export const meta: Route.MetaFunction = () => [{ title: "Confirmar lembretes — Nika" }, { name: "robots", content: "noindex" }];

const INVALID = {
  state: "invalid",
  message: "Link inválido ou de um endereço que mudou. Ative o Lembrete diário de novo em Configurações.",
} as const;

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request);
  if (!(await confirmTokenValid(context.cloudflare.env, token))) return data(INVALID, { status: 400 });
  return { state: "ready" as const, token };
}

/** The form sends nothing but the button. */
const schema = z.object({});

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, schema);
  if (submission.status !== "success") return data(INVALID, { status: 400 });
  if (!(await confirmReminders(context.db, context.cloudflare.env, tokenOf(request)))) return data(INVALID, { status: 400 });
  return { state: "confirmed" as const };
}

const TEXTS = {
  ready: {
    title: "Quer receber lembretes?",
    subtitle: "Um email por dia, quando você ainda não tiver praticado, para manter a sua ofensiva.",
    button: "Sim, quero receber lembretes",
    pending: "Confirmando...",
  },
  done: {
    title: "Lembretes confirmados",
    notice: "Você vai receber o Lembrete diário neste endereço.",
    description: "Para parar, use o link de qualquer lembrete ou desative em Configurações.",
  },
  invalidTitle: "Não foi possível confirmar",
};

export default function ConfirmReminders() {
  const page = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const result = done ?? page;
  return <SignedLinkPage result={result.state === "confirmed" ? { state: "done" } : result} path="/lembretes/confirmar" texts={TEXTS} />;
}
