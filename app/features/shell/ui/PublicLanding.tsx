// Public pages /nika and /nika-landing: a light marketing page (no data, works without JS).
import { Link, useRouteLoaderData } from "react-router";
import { buttonVariants } from "~/components/button";
import { ArrowRightIcon, NikaLogo } from "~/components/icons";
import { MAIN_ID } from "../types";
import { ChatArt, FlixArt, LabsArt } from "./art";
import { ThemeToggle } from "./ThemeToggle";

type RootData = { signedIn?: boolean; appName?: string };

const FEATURES = [
  {
    title: "Chat with Nika",
    text: "Converse por texto ou voz, em português ou em inglês, em jogos e role plays.",
    art: <ChatArt />,
    gradient: "from-indigo-500 to-violet-600",
  },
  {
    title: "Teacher FLIX",
    text: "Cursos em vídeo organizados em módulos, com materiais para baixar.",
    art: <FlixArt />,
    gradient: "from-rose-500 to-orange-500",
  },
  {
    title: "Labs",
    text: "Flashcards, jogo de pronúncia com 100 níveis e teste de nível.",
    art: <LabsArt />,
    gradient: "from-emerald-500 to-teal-600",
  },
];

export function PublicLanding({ title, lead }: { title: string; lead: string }) {
  const root = useRouteLoaderData<RootData>("root");
  const appName = root?.appName ?? "Nika";
  const signedIn = root?.signedIn ?? false;
  const primary = buttonVariants({ size: "lg" });
  const secondary = buttonVariants({ variant: "secondary", size: "lg" });

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="mx-auto flex w-full max-w-5xl items-center gap-3 px-4 py-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-lg text-lg font-bold tracking-tight">
          <NikaLogo size={30} />
          {appName}
        </Link>
        <span className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          {signedIn ? null : (
            <Link to="/signin" className="rounded-lg px-3 py-2 text-sm font-semibold hover:bg-slate-100 dark:hover:bg-night-800">
              Entrar
            </Link>
          )}
        </span>
      </header>
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto w-full max-w-5xl flex-1 px-4 pt-8 pb-16 outline-none sm:px-6 sm:pt-16">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Inglês para quem fala português</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{lead}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            {signedIn ? (
              <Link to="/" className={primary}>
                Ir para o app
                <ArrowRightIcon size={18} />
              </Link>
            ) : (
              <>
                <Link to="/signup" className={primary}>
                  Criar conta grátis
                  <ArrowRightIcon size={18} />
                </Link>
                <Link to="/signin" className={secondary}>
                  Já tenho conta
                </Link>
              </>
            )}
          </div>
        </div>
        <section aria-labelledby="recursos" className="mt-16">
          <h2 id="recursos" className="text-xl font-bold tracking-tight">
            Tudo o que você precisa para praticar
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-3">
            {FEATURES.map((feature) => (
              <li
                key={feature.title}
                className="overflow-hidden rounded-3xl border border-slate-200 bg-white dark:border-night-700 dark:bg-night-900"
              >
                <div className={`flex h-32 items-center justify-center bg-gradient-to-br ${feature.gradient}`}>
                  <div className="w-24">{feature.art}</div>
                </div>
                <div className="p-5">
                  <h3 className="font-bold">{feature.title}</h3>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{feature.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-600 dark:border-night-800 dark:text-slate-300">
        © {new Date().getFullYear()} {appName}. Aprenda inglês no seu ritmo.
      </footer>
    </div>
  );
}
