// The page around the live island: the way back to the text chat and, without JavaScript, why there is nothing
// to press. The island (microphone, player, socket) loads only after hydration, as its own chunk.
import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { ArrowLeftIcon } from "~/components/icons";
import { useHydrated } from "~/lib/use-hydrated";
import type { LivePageData } from "../page.server";

// Never rendered on the server (only after hydration): the server build leaves the island out of the worker.
const LiveConversation = import.meta.env.SSR
  ? () => null
  : lazy(() => import("./LiveConversation").then((module) => ({ default: module.LiveConversation })));

export const NEEDS_JAVASCRIPT = "A conversa ao vivo precisa de JavaScript.";

export function LiveScreen({ page }: { page: LivePageData }) {
  const hydrated = useHydrated();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col px-3 pb-24 sm:px-4 md:pb-8" data-testid="live-screen">
      <header className="flex items-center gap-2 border-b border-slate-200 py-2 dark:border-night-800">
        <Link
          to={page.chatHref}
          aria-label="Voltar ao chat"
          className="rounded-full p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-night-800"
        >
          <ArrowLeftIcon size={20} />
        </Link>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base font-bold tracking-tight sm:text-lg">Conversa ao vivo</h1>
          <p className="truncate text-xs text-slate-600 dark:text-slate-300">{page.modeTitle}</p>
        </div>
      </header>
      {hydrated ? (
        <Suspense fallback={<p className="mt-6 text-center text-slate-600 dark:text-slate-300">Carregando…</p>}>
          <LiveConversation {...page} />
        </Suspense>
      ) : (
        // Server-rendered for browsers without scripts; hidden from the first paint where scripts run (the head
        // script marks the page `js`), so it never flashes before the island hydrates.
        <div className="mx-auto mt-6 max-w-md rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100 [.js_&]:hidden">
          <p className="font-semibold">{NEEDS_JAVASCRIPT}</p>
          <p className="mt-1">
            Para falar com a Nika em tempo real, ative o JavaScript no navegador. Sem ele, continue a conversa pelo chat, por texto ou mensagens
            de voz.
          </p>
          <Link to={page.chatHref} className="mt-3 inline-block font-semibold text-indigo-800 underline dark:text-indigo-200">
            Ir para o chat por texto e voz
          </Link>
        </div>
      )}
    </div>
  );
}
