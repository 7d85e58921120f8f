import type { MetaFunction } from "@remix-run/cloudflare";
import { useRouteLoaderData } from "@remix-run/react";
import { ChatArt, FlixArt, LabsArt } from "~/features/shell/art";
import { FeatureCardGrid, type FeatureCardProps } from "~/features/shell/FeatureCard";
import { SHELL_ROUTE_ID, firstName, type ShellData } from "~/features/shell/types";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Início — Nika" }];

const HOME_CARDS: readonly FeatureCardProps[] = [
  {
    to: "/chat-with-nika",
    title: "Chat with Nika",
    description: "Converse com a Nika e pratique inglês do seu jeito.",
    gradient: "from-indigo-500 to-violet-600",
    art: <ChatArt />,
  },
  {
    to: "/courses",
    title: "Teacher FLIX",
    description: "Cursos em vídeo com aulas passo a passo.",
    gradient: "from-rose-500 to-orange-500",
    art: <FlixArt />,
  },
  {
    to: "/labs",
    title: "Labs",
    description: "Flashcards, pronúncia e teste de nível em fase beta.",
    gradient: "from-emerald-500 to-teal-600",
    art: <LabsArt />,
  },
];

export default function Home() {
  const shell = useRouteLoaderData<ShellData>(SHELL_ROUTE_ID);
  const name = shell ? firstName(shell.user.name) : "";
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{name ? `Olá, ${name}!` : "Olá!"}</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-300">O que vamos praticar hoje?</p>
      <FeatureCardGrid cards={HOME_CARDS} />
    </div>
  );
}
