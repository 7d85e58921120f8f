// /courses/banner/edit — the courses hero banner (title, subtitle, image or gradient, active), nested
// under /courses. Admins only; Teacher FLIX must be on.
import { useActionData, useLoaderData } from "react-router";
import { AdminPanel } from "~/components/admin/AdminPanel";
import { requireCourseAdmin } from "~/features/courses/admin/actions.server";
import { BannerForm } from "~/features/courses/admin/BannerForm";
import { findCoursesBanner, saveCoursesBanner } from "~/features/courses/admin/content.server";
import { bannerSchema } from "~/features/courses/admin/schemas";
import type { RouteHandle } from "~/lib/access";
import { handleAdminSave } from "~/server/admin-forms.server";
import type { Route } from "./+types/banner.edit";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Editar banner dos cursos — Nika" }];

const COURSES = "/courses";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCourseAdmin(request, context);
  return { banner: await findCoursesBanner(context.db) };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireCourseAdmin(request, context);
  return handleAdminSave({
    request,
    context,
    schema: bannerSchema,
    files: [{ file: "background_image_file", url: "background_image_url", folder: "banners" }],
    save: (value, urls) => saveCoursesBanner(context.db, value, urls),
    failure: (message) => `Falha ao atualizar banner: ${message}`,
    notFound: "Banner não encontrado",
    success: { to: COURSES, description: "Banner atualizado com sucesso" },
  });
}

export default function EditCoursesBanner() {
  const { banner } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <AdminPanel title="Editar banner" description="Banner do topo da página de cursos" closeTo={COURSES}>
      <BannerForm banner={banner} actionData={actionData} action={`${COURSES}/banner/edit`} closeTo={COURSES} />
    </AdminPanel>
  );
}
