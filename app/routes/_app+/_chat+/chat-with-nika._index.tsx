// /chat-with-nika: the mode menu (spec §2). Each card is behind its flag; a disabled mode shows as
// unavailable (its page answers 403 on the server anyway). The english-test mode lives in Labs.
import { useLoaderData } from "react-router";
import { MENU_MODES } from "~/features/conversation/modes";
import { ChatArt } from "~/features/shell/ui/art";
import { FeatureCard } from "~/features/shell/ui/FeatureCard";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import type { Route } from "./+types/chat-with-nika._index";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Chat with Nika — Nika" }];

const GRADIENTS: Record<string, string> = {
  portuguese: "from-emerald-500 to-teal-600",
  english: "from-indigo-500 to-violet-600",
  game: "from-amber-500 to-orange-600",
  roleplay: "from-rose-500 to-pink-600",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  const flags = await getFlags(context);
  return {
    modes: MENU_MODES.map((mode) => ({
      id: mode.id,
      title: mode.title,
      description: mode.description,
      path: mode.path!,
      enabled: mode.flag ? flags[mode.flag] : true,
    })),
  };
}

export default function ChatMenu() {
  const { modes } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Chat with Nika</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-300">
        Escolha como quer praticar hoje. Cada mensagem usa 1 crédito; a Nika começa a conversa.
      </p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 sm:gap-5">
        {modes.map((mode) => (
          <li key={mode.id} className="flex flex-col">
            {mode.enabled ? (
              <FeatureCard
                to={mode.path}
                prefetch="none"
                title={mode.title}
                description={mode.description}
                gradient={GRADIENTS[mode.id] ?? "from-indigo-500 to-violet-600"}
                art={<ChatArt />}
              />
            ) : (
              <div className="flex flex-1 flex-col justify-center rounded-3xl border border-dashed border-slate-300 p-5 dark:border-night-700">
                <h2 className="text-lg font-bold tracking-tight">{mode.title}</h2>
                <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">Recurso Temporariamente Indisponível</p>
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
