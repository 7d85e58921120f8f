// The English level test's own parts: the intro (current level, start/retake) and the level banner above the chat.
import { Form, Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { ArrowLeftIcon } from "~/components/icons";

const LEVEL_NAMES: Record<string, string> = {
  A1: "Iniciante",
  A2: "Básico",
  B1: "Intermediário",
  B2: "Intermediário avançado",
  C1: "Avançado",
  C2: "Proficiente",
};

export function levelLabel(level: string) {
  return `${level} — ${LEVEL_NAMES[level] ?? ""}`.replace(/ — $/, "");
}

export function LevelTestIntro({ level, levelAtLabel }: { level: string | null; levelAtLabel: string | null }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6 sm:px-6 sm:py-10">
      <Link to="/labs" className="inline-flex items-center gap-1.5 text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300">
        <ArrowLeftIcon size={16} /> Voltar ao Labs
      </Link>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">Teste de Nível de Inglês</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-200">
        A Nika faz algumas perguntas, uma de cada vez, e ajusta a dificuldade às suas respostas. No final você recebe seu nível (de A1 a C2) com
        uma explicação em português. Cada resposta usa 1 crédito.
      </p>
      {level ? (
        <div
          className="mt-6 rounded-2xl border border-indigo-200 bg-indigo-50 p-5 dark:border-indigo-400/30 dark:bg-indigo-400/10"
          data-testid="english-level"
        >
          <p className="text-sm font-semibold text-indigo-900 dark:text-indigo-100">Seu nível atual</p>
          <p className="mt-1 text-3xl font-black tracking-tight text-indigo-950 dark:text-white">{levelLabel(level)}</p>
          {levelAtLabel ? <p className="mt-1 text-sm text-indigo-900 dark:text-indigo-100">Teste feito em {levelAtLabel}</p> : null}
        </div>
      ) : null}
      <Form method="post" className="mt-6">
        <input type="hidden" name="intent" value="new" />
        <button type="submit" className={buttonVariants({ size: "lg", className: "h-12 px-6 py-0" })}>
          {level ? "Refazer o teste" : "Começar o teste"}
        </button>
      </Form>
    </div>
  );
}

export function LevelBanner({ level }: { level: string | null }) {
  if (!level) return null;
  return (
    <p
      className="border-b border-indigo-200 bg-indigo-50 px-4 py-2 text-sm text-indigo-950 dark:border-indigo-400/30 dark:bg-indigo-400/10 dark:text-indigo-100"
      data-testid="english-level"
    >
      Seu nível: <strong>{levelLabel(level)}</strong>
    </p>
  );
}
