// /courses/modules/:moduleId/edit — "Editar Módulo", nested in the module page (dialog with JS, page
// section without). Admins only; Teacher FLIX must be on.
import { useActionData, useLoaderData } from "react-router";
import { AdminPanel } from "~/components/admin/AdminPanel";
import { requireCourseAdmin } from "~/features/courses/admin/actions.server";
import { findModuleForEdit, updateModule } from "~/features/courses/admin/content.server";
import { ModuleForm } from "~/features/courses/admin/ModuleForm";
import { moduleSchema } from "~/features/courses/admin/schemas";
import type { RouteHandle } from "~/lib/access";
import { handleAdminSave } from "~/server/admin-forms.server";
import { notFound, requireUuidParam } from "~/server/request.server";
import type { Route } from "./+types/modules.$moduleId.edit";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Editar Módulo — Nika" }];

const modulePath = (id: string) => `/courses/modules/${id}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireCourseAdmin(request, context);
  const module = await findModuleForEdit(context.db, params.moduleId!);
  if (!module) throw notFound("Módulo não encontrado");
  return { module };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const moduleId = requireUuidParam(params, "moduleId", "Módulo não encontrado");
  await requireCourseAdmin(request, context);
  return handleAdminSave({
    request,
    context,
    schema: moduleSchema,
    files: [
      { file: "image_file", url: "image_url", folder: "modules" },
      { file: "banner_file", url: "banner_url", folder: "banners" },
    ],
    save: (value, urls) => updateModule(context.db, moduleId, value, urls),
    failure: (message) => `Falha ao atualizar módulo: ${message}`,
    notFound: "Módulo não encontrado",
    success: { to: modulePath(moduleId), description: "Módulo atualizado com sucesso" },
  });
}

export default function EditModule() {
  const { module } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const closeTo = modulePath(module.id);
  return (
    <AdminPanel title="Editar Módulo" description={module.title} closeTo={closeTo}>
      <ModuleForm module={module} actionData={actionData} action={`${closeTo}/edit`} closeTo={closeTo} />
    </AdminPanel>
  );
}
