import type { MetaFunction } from "react-router";
import { FlashcardsArt, LevelTestArt, PronunciationArt } from "~/features/shell/ui/art";
import { FeatureCardGrid, type FeatureCardProps } from "~/features/shell/ui/FeatureCard";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Labs — Nika" }];

const LAB_CARDS: readonly FeatureCardProps[] = [
  {
    to: "/flashcard-v2",
    title: "Flashcards",
    description: "Aprenda vocabulário com imagens e áudio.",
    gradient: "from-teal-500 to-cyan-600",
    art: <FlashcardsArt />,
    badge: "BETA",
  },
  {
    to: "/pronunciation-game",
    title: "Jogo de Pronúncia",
    description: "Grave sua voz, receba uma nota e suba de nível.",
    gradient: "from-fuchsia-500 to-purple-600",
    art: <PronunciationArt />,
    badge: "BETA",
  },
  {
    to: "/english-level-test",
    title: "Teste de Nível de Inglês",
    description: "Descubra seu nível conversando com a Nika.",
    gradient: "from-sky-500 to-blue-600",
    art: <LevelTestArt />,
    badge: "BETA",
  },
];

export default function Labs() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Labs</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-300">Recursos experimentais para turbinar seu inglês. Teste e conte o que achou!</p>
      <FeatureCardGrid cards={LAB_CARDS} />
    </div>
  );
}
