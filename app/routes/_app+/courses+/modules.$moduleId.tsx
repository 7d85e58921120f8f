import { Link, Outlet, useLoaderData } from "react-router";
import { ArrowLeftIcon } from "~/components/icons";
import { courseNotFound, loadModulePage } from "~/features/courses/catalog.server";
import { LessonList } from "~/features/courses/ui/LessonList";
import { ModuleBanner, moduleHeading } from "~/features/courses/ui/ModuleBanner";
import { CourseErrorBoundary, courseErrorTitle } from "~/features/courses/ui/NotFound";
import { EditLink } from "~/features/courses/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import type { Route } from "./+types/modules.$moduleId";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = ({ data, error }) => [
  { title: data ? `${moduleHeading(data.page.module)} — Teacher FLIX` : courseErrorTitle(error) },
];

/** Missing, malformed or (for learners) unavailable module → 404 "Módulo não encontrado". */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  const page = await loadModulePage(context.db, { id: user.id, isAdmin: user.isAdmin }, params.moduleId);
  if (!page) throw courseNotFound("module");
  return { page, isAdmin: user.isAdmin };
}

export default function ModuleRoute() {
  const { page, isAdmin } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-8">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <Link
          to="/courses"
          prefetch="intent"
          className="inline-flex items-center gap-1.5 rounded-lg py-1 text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300"
        >
          <ArrowLeftIcon size={16} />
          Voltar aos Cursos
        </Link>
        {isAdmin ? (
          // Spec: admins edit on desktop; the module page hides its edit controls below 768 px.
          <EditLink to={`/courses/modules/${page.module.id}/edit`} className="hidden md:inline-flex">
            Editar Módulo
          </EditLink>
        ) : null}
      </div>
      <ModuleBanner page={page} />
      <section aria-label="Aulas" className="mt-6">
        <LessonList lessons={page.lessons} isAdmin={isAdmin} />
      </section>
      {/* Nested admin routes (e.g. /courses/modules/:id/edit) render over this page. */}
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = CourseErrorBoundary;
