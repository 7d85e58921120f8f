// "Módulo não encontrado" / "Aula não encontrada": what the course routes' error boundaries render for
// the 404 that catalog.server.ts throws (missing, malformed or — for learners — unavailable ids): the
// one refusal shape `{ error, code }`, its code naming the kind.
import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import { buttonVariants } from "~/components/button";
import { ErrorScreen, isFeatureDisabledError } from "~/components/ErrorScreen";
import { ArrowLeftIcon } from "~/components/icons";

export type CourseNotFoundKind = "module" | "lesson";

export const COURSE_NOT_FOUND_CODES = { module: "module_not_found", lesson: "lesson_not_found" } as const satisfies Record<
  CourseNotFoundKind,
  string
>;

/** The kind of a course 404's data (`{ error, code }`), or null for any other answer. */
export function courseNotFoundOf(value: unknown): CourseNotFoundKind | null {
  const code = typeof value === "object" && value !== null ? (value as { code?: unknown }).code : undefined;
  if (code === COURSE_NOT_FOUND_CODES.module) return "module";
  if (code === COURSE_NOT_FOUND_CODES.lesson) return "lesson";
  return null;
}

export function courseNotFoundKind(error: unknown): CourseNotFoundKind | null {
  return isRouteErrorResponse(error) && error.status === 404 ? courseNotFoundOf(error.data) : null;
}

export function CourseNotFoundScreen({ kind }: { kind: CourseNotFoundKind }) {
  return (
    <div className="mx-auto flex min-h-[60dvh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
      <div className="mb-6 flex size-16 items-center justify-center rounded-2xl bg-indigo-100 text-2xl font-black text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-200">
        404
      </div>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{kind === "module" ? "Módulo não encontrado" : "Aula não encontrada"}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        {kind === "module" ? "Este módulo não existe ou ainda não está disponível." : "Informações da aula não encontradas."}
      </p>
      <Link to="/courses" className={buttonVariants({ size: "lg", className: "mt-8" })}>
        <ArrowLeftIcon size={18} />
        Voltar aos Cursos
      </Link>
    </div>
  );
}

/** Error boundary of the module and lesson routes. */
export function CourseErrorBoundary() {
  const error = useRouteError();
  const kind = courseNotFoundKind(error);
  if (kind) return <CourseNotFoundScreen kind={kind} />;
  // 4xx answers (refused input, not found, disabled features) are expected; only failures are logged.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  return <ErrorScreen error={error} />;
}

export function courseErrorTitle(error: unknown): string {
  const kind = courseNotFoundKind(error);
  if (kind === "module") return "Módulo não encontrado — Nika";
  if (kind === "lesson") return "Aula não encontrada — Nika";
  if (isFeatureDisabledError(error)) return "Recurso Temporariamente Indisponível — Nika";
  return "Teacher FLIX — Nika";
}
