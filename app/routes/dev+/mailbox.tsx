// Development mailbox: the outbox, newest first, with clickable links — so sign-up confirmation and
// password reset can be followed locally. Never reachable in production.
import { desc, eq } from "drizzle-orm";
import { Form, useLoaderData } from "react-router";
import type { RouteHandle } from "~/lib/access";
import { isProduction } from "~/server/env";
import { notFound } from "~/server/request.server";
import { mailOutbox } from "~/server/schema";
import type { Route } from "./+types/mailbox";

export const handle: RouteHandle = { access: "dev" };

export const meta: Route.MetaFunction = () => [{ title: "Caixa de emails (desenvolvimento) — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (isProduction(context.cloudflare.env)) throw notFound("Página não encontrada");
  const to = new URL(request.url).searchParams.get("to")?.trim().toLowerCase() || null;
  const messages = await context.db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.toAddress,
      subject: mailOutbox.subject,
      text: mailOutbox.textBody,
      kind: mailOutbox.kind,
      headers: mailOutbox.headers,
      status: mailOutbox.status,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(to ? eq(mailOutbox.toAddress, to) : undefined)
    .orderBy(desc(mailOutbox.id))
    .limit(50);
  return { to, messages };
}

const URL_PATTERN = /(https?:\/\/[^\s]+)/g;

function TextWithLinks({ text }: { text: string }) {
  return (
    <>
      {text.split(URL_PATTERN).map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="break-all font-medium text-indigo-700 underline dark:text-indigo-300">
            {part}
          </a>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </>
  );
}

export default function DevMailbox() {
  const { to, messages } = useLoaderData<typeof loader>();
  return (
    <main id="conteudo" className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold">Caixa de emails (desenvolvimento)</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Todas as mensagens enviadas pelo app ficam aqui. Esta página não existe em produção.
      </p>
      <Form method="get" className="mt-4 flex gap-2">
        <label htmlFor="mailbox-to" className="sr-only">
          Filtrar por destinatário
        </label>
        <input
          id="mailbox-to"
          name="to"
          type="email"
          defaultValue={to ?? ""}
          placeholder="Filtrar por destinatário"
          className="flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-white"
        />
        <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 font-semibold text-white">
          Filtrar
        </button>
      </Form>
      {messages.length === 0 ? <p className="mt-6">Nenhum email ainda.</p> : null}
      <ol className="mt-6 space-y-4">
        {messages.map((message) => (
          <li key={message.id} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800" data-testid="mail">
            <h2 className="font-semibold">{message.subject}</h2>
            <p className="text-xs text-slate-600 dark:text-slate-400">
              Para <span data-testid="mail-to">{message.to}</span> · {message.kind} · {message.status} ·{" "}
              {new Date(message.createdAt).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo" })}
            </p>
            {message.headers ? (
              <dl className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="mail-headers">
                {Object.entries(message.headers).map(([name, value]) => (
                  <div key={name} className="break-all">
                    <dt className="inline font-semibold">{name}:</dt> <dd className="inline">{value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            <p className="mt-2 whitespace-pre-wrap text-sm">
              <TextWithLinks text={message.text} />
            </p>
          </li>
        ))}
      </ol>
    </main>
  );
}
