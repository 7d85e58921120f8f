import { Outlet, useLoaderData } from "react-router";
import { loadCatalogue } from "~/features/courses/catalog.server";
import { CoursesHero } from "~/features/courses/ui/CoursesHero";
import { ModuleCard } from "~/features/courses/ui/ModuleCard";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import type { Route } from "./+types/_layout";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Teacher FLIX — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  const catalogue = await loadCatalogue(context.db, { id: user.id, isAdmin: user.isAdmin });
  return { ...catalogue, isAdmin: user.isAdmin };
}

export default function CoursesPage() {
  const { banner, modules, isAdmin } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
      {/* The banner editor (/courses/banner/edit) for admins. */}
      <Outlet />
      <CoursesHero banner={banner} isAdmin={isAdmin} />
      <section aria-labelledby="modulos-titulo" className="mt-8">
        <h2 id="modulos-titulo" className="text-xl font-bold tracking-tight sm:text-2xl">
          Módulos
        </h2>
        {modules.length === 0 ? (
          <p className="mt-4 rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-night-700 dark:text-slate-300">
            Nenhum módulo publicado ainda. Volte em breve!
          </p>
        ) : (
          <ul className="mt-4 grid grid-cols-2 gap-4 lg:grid-cols-4 lg:gap-6">
            {modules.map((module, index) => (
              <ModuleCard key={module.id} module={module} isAdmin={isAdmin} eager={index < 4} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
