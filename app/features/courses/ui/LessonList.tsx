// Lessons of a module page, by order_index: number or thumbnail, title, description, minutes, a check
// mark when completed, and "Assistir" / "Revisar" ("Assistir Aula" / "Revisar Aula" on mobile).
import { Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { CheckIcon, ClockIcon, PlayIcon } from "~/components/icons";
import type { ModuleLesson } from "../catalog.server";
import { minutesLabel, safeImageSrc } from "../format";
import { EditLink } from "./parts";

export function LessonList({ lessons, isAdmin }: { lessons: ModuleLesson[]; isAdmin: boolean }) {
  if (lessons.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-600 dark:border-night-700 dark:text-slate-300">
        Nenhuma aula publicada neste módulo ainda.
      </p>
    );
  }
  return (
    <ol className="space-y-3" aria-label="Aulas do módulo">
      {lessons.map((lesson, index) => (
        <LessonRow key={lesson.id} lesson={lesson} position={index + 1} isAdmin={isAdmin} />
      ))}
    </ol>
  );
}

function LessonRow({ lesson, position, isAdmin }: { lesson: ModuleLesson; position: number; isAdmin: boolean }) {
  const titleId = `aula-${lesson.id}-titulo`;
  const thumbnail = safeImageSrc(lesson.thumbnailUrl);
  return (
    <li
      data-testid="lesson-row"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:flex-row sm:items-center sm:gap-4 sm:p-4 dark:border-night-700 dark:bg-night-900"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3 sm:items-center sm:gap-4">
        <div className="relative shrink-0">
          {thumbnail ? (
            <img src={thumbnail} alt="" loading="lazy" decoding="async" className="aspect-video w-24 rounded-xl object-cover sm:w-36" />
          ) : (
            <span
              aria-hidden="true"
              className={`flex size-12 items-center justify-center rounded-xl text-lg font-bold sm:size-14 ${
                lesson.completed
                  ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-400/15 dark:text-emerald-200"
                  : "bg-indigo-100 text-indigo-800 dark:bg-indigo-400/15 dark:text-indigo-200"
              }`}
            >
              {position}
            </span>
          )}
          {lesson.completed ? (
            <span className="absolute -top-1.5 -right-1.5 flex size-6 items-center justify-center rounded-full bg-emerald-600 text-white ring-2 ring-white dark:ring-night-900">
              <CheckIcon size={14} />
              <span className="sr-only">Aula concluída</span>
            </span>
          ) : null}
        </div>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="font-semibold leading-snug text-slate-900 dark:text-white">
            {lesson.title}
          </h2>
          {lesson.description ? <p className="mt-0.5 line-clamp-2 text-sm text-slate-600 dark:text-slate-300">{lesson.description}</p> : null}
          <p className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
            <ClockIcon size={13} />
            {minutesLabel(lesson.durationSeconds)}
          </p>
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        {isAdmin ? (
          <EditLink to={`/courses/lessons/${lesson.id}/edit`} className="hidden md:inline-flex">
            Editar Aula
          </EditLink>
        ) : null}
        <Link
          to={`/courses/lessons/${lesson.id}`}
          prefetch="intent"
          aria-describedby={titleId}
          className={buttonVariants({ variant: lesson.completed ? "secondary" : "primary", className: "w-full sm:w-auto" })}
        >
          {lesson.completed ? <CheckIcon size={16} /> : <PlayIcon size={16} />}
          <span className="md:hidden">{lesson.completed ? "Revisar Aula" : "Assistir Aula"}</span>
          <span className="hidden md:inline">{lesson.completed ? "Revisar" : "Assistir"}</span>
        </Link>
      </div>
    </li>
  );
}
