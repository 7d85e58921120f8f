// Pieces of the lesson page: header, the completion form, next lesson, "Praticar com a Nika" and the
// "Sobre esta Aula" card.
import { useEffect } from "react";
import { Form, Link, useNavigation } from "react-router";
import { buttonVariants } from "~/components/button";
import { ArrowLeftIcon, BookIcon, CheckIcon, ChevronRightIcon, ClockIcon, SparkleIcon } from "~/components/icons";
import { toast } from "~/components/Toaster";
import type { CompleteActionData, LessonPage } from "../catalog.server";
import { minutesLabel } from "../format";
import { cardClass, CompletedBadge, EditLink } from "./parts";

export function LessonHeader({ page, isAdmin }: { page: LessonPage; isAdmin: boolean }) {
  const { lesson, module, completed } = page;
  return (
    <header>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link
          to={`/courses/modules/${module.id}`}
          prefetch="intent"
          className="inline-flex items-center gap-1.5 rounded-lg py-1 text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300"
        >
          <ArrowLeftIcon size={16} />
          Voltar ao Módulo
        </Link>
        {isAdmin ? <EditLink to={`/courses/lessons/${lesson.id}/edit`}>Editar Aula</EditLink> : null}
      </div>
      <p className="mt-3 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
        Módulo {module.orderIndex}: {module.title}
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 className="text-2xl font-bold tracking-tight text-balance sm:text-3xl">{lesson.title}</h1>
        {completed ? <CompletedBadge /> : null}
      </div>
      <p className="mt-2 inline-flex items-center gap-1 text-sm text-slate-600 dark:text-slate-300">
        <ClockIcon size={15} />
        {minutesLabel(lesson.durationSeconds)}
      </p>
    </header>
  );
}

/**
 * "Marcar como Concluída": a POST form; afterwards disabled, showing "Concluída" (no way back). A failure
 * is the action's reply: its form error shown under the button (also without JavaScript) and a toast.
 */
export function CompleteLessonForm({ completed, failure }: { completed: boolean; failure: CompleteActionData | null }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "complete";
  const done = completed || pending;
  const [error] = failure?.result.error?.[""] ?? [];
  useEffect(() => {
    if (failure?.code !== "completion_failed") return;
    toast({ type: "error", title: "Erro", description: "Não foi possível marcar a aula como concluída." });
  }, [failure]);
  return (
    <Form method="post" preventScrollReset className="contents">
      <input type="hidden" name="intent" value="complete" />
      <button
        type="submit"
        disabled={done}
        aria-busy={pending || undefined}
        className={buttonVariants({ variant: "success", className: "w-full sm:w-auto" })}
      >
        <CheckIcon size={18} />
        {done ? "Concluída" : "Marcar como Concluída"}
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </Form>
  );
}

export function LessonActions({ page, completionFailure }: { page: LessonPage; completionFailure: CompleteActionData | null }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
      <CompleteLessonForm completed={page.completed} failure={completionFailure} />
      {page.nextLessonId ? (
        <Link to={`/courses/lessons/${page.nextLessonId}`} prefetch="intent" className={buttonVariants({ className: "w-full sm:w-auto" })}>
          Próxima Aula
          <ChevronRightIcon size={18} />
        </Link>
      ) : (
        <button type="button" disabled className={buttonVariants({ className: "w-full sm:w-auto" })}>
          Próxima Aula
          <ChevronRightIcon size={18} />
        </button>
      )}
      {page.practiceCode ? (
        <Link to={`/chat/lesson/${page.practiceCode}`} className={buttonVariants({ variant: "secondary", className: "w-full sm:w-auto" })}>
          <SparkleIcon size={18} className="text-indigo-600 dark:text-indigo-300" />
          Praticar com a Nika
        </Link>
      ) : null}
    </div>
  );
}

export function AboutLesson({ page }: { page: LessonPage }) {
  const { lesson, module } = page;
  return (
    <section aria-labelledby="sobre-aula" className={`${cardClass} p-4 sm:p-6`}>
      <h2 id="sobre-aula" className="flex items-center gap-2 text-lg font-bold">
        <BookIcon size={20} className="text-indigo-600 dark:text-indigo-300" />
        Sobre esta Aula
      </h2>
      <p className="mt-3 leading-relaxed whitespace-pre-line text-slate-700 dark:text-slate-200">
        {lesson.description?.trim() ||
          `Nesta aula, “${lesson.title}”, você pratica o inglês do dia a dia passo a passo. Assista ao vídeo, marque a aula como concluída e tire suas dúvidas nos comentários.`}
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        <div className="rounded-xl bg-slate-100 p-3 dark:bg-night-800">
          <dt className="text-slate-600 dark:text-slate-300">Módulo</dt>
          <dd className="mt-0.5 font-semibold">
            {module.orderIndex}: {module.title}
          </dd>
        </div>
        <div className="rounded-xl bg-slate-100 p-3 dark:bg-night-800">
          <dt className="text-slate-600 dark:text-slate-300">Duração</dt>
          <dd className="mt-0.5 font-semibold">{minutesLabel(lesson.durationSeconds)}</dd>
        </div>
        <div className="rounded-xl bg-slate-100 p-3 dark:bg-night-800">
          <dt className="text-slate-600 dark:text-slate-300">Status</dt>
          <dd className="mt-0.5 font-semibold">{page.completed ? "Concluída" : "Não concluída"}</dd>
        </div>
      </dl>
    </section>
  );
}
