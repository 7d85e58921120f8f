// Loading placeholders shown while a client navigation into a course page loads (useNavigation).
import { useLocation, useNavigation } from "react-router";

const bone = "animate-pulse rounded-xl bg-slate-200 dark:bg-night-800";

export function CataloguePageSkeleton() {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8" aria-busy="true" data-testid="courses-skeleton">
      <p className="sr-only" role="status">
        Carregando cursos…
      </p>
      <div className={`${bone} h-44 rounded-3xl sm:h-56`} />
      <div className={`${bone} mt-8 h-6 w-32`} />
      <ul className="mt-4 grid grid-cols-2 gap-4 lg:grid-cols-4 lg:gap-6" aria-hidden="true">
        {Array.from({ length: 8 }, (_, index) => (
          <li key={index} className={`${bone} aspect-[4/5] rounded-2xl`} />
        ))}
      </ul>
    </div>
  );
}

export function ModulePageSkeleton() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-8" aria-busy="true">
      <p className="sr-only" role="status">
        Carregando módulo…
      </p>
      <div className={`${bone} h-5 w-36`} />
      <div className={`${bone} mt-4 h-40 rounded-3xl sm:h-52`} />
      <ul className="mt-6 space-y-3" aria-hidden="true">
        {Array.from({ length: 5 }, (_, index) => (
          <li key={index} className={`${bone} h-24 rounded-2xl`} />
        ))}
      </ul>
    </div>
  );
}

export function LessonPageSkeleton() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-8" aria-busy="true">
      <p className="sr-only" role="status">
        Carregando aula…
      </p>
      <div className={`${bone} h-5 w-40`} />
      <div className={`${bone} mt-4 h-8 w-3/4`} />
      <div className={`${bone} mt-6 aspect-video w-full rounded-2xl`} />
      <div className={`${bone} mt-6 h-11 w-full sm:w-2/3`} />
    </div>
  );
}

/** Which course page a path shows (nested admin routes such as …/edit belong to their page). */
export function coursePageOf(pathname: string): string | null {
  const match = /^\/courses(?:\/(modules|lessons)\/([^/]+))?(\/.*)?$/.exec(pathname);
  if (!match) return null;
  if (!match[1]) return match[3] && match[3] !== "/" ? `other:${match[3]}` : "catalogue";
  return `${match[1]}:${match[2]}`;
}

/**
 * The skeleton for a client navigation that is loading a different course page, or null. Used by the
 * courses layout; the app layout may use it too, for navigations coming from outside /courses.
 */
export function useCoursesNavigationSkeleton() {
  const navigation = useNavigation();
  const location = useLocation();
  const next = navigation.location;
  if (navigation.state !== "loading" || !next || navigation.formMethod) return null;
  const target = coursePageOf(next.pathname);
  if (!target || target === coursePageOf(location.pathname)) return null;
  if (target === "catalogue") return <CataloguePageSkeleton />;
  if (target.startsWith("modules:")) return <ModulePageSkeleton />;
  if (target.startsWith("lessons:")) return <LessonPageSkeleton />;
  return null;
}
