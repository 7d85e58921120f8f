// /courses/lessons/:lessonId/edit — "Editar Aula", nested in the lesson page (dialog with JS, page
// section without). Admins only; Teacher FLIX must be on.
import { useActionData, useLoaderData } from "react-router";
import { AdminPanel } from "~/components/admin/AdminPanel";
import { requireCourseAdmin } from "~/features/courses/admin/actions.server";
import { findLessonForEdit, updateLesson } from "~/features/courses/admin/content.server";
import { LessonForm } from "~/features/courses/admin/LessonForm";
import { lessonSchema } from "~/features/courses/admin/schemas";
import type { RouteHandle } from "~/lib/access";
import { handleAdminSave } from "~/server/admin-forms.server";
import { notFound, requireUuidParam } from "~/server/request.server";
import type { Route } from "./+types/lessons.$lessonId.edit";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Editar Aula — Nika" }];

const lessonPath = (id: string) => `/courses/lessons/${id}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireCourseAdmin(request, context);
  const lesson = await findLessonForEdit(context.db, params.lessonId!);
  if (!lesson) throw notFound("Aula não encontrada");
  return { lesson };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const lessonId = requireUuidParam(params, "lessonId", "Aula não encontrada");
  await requireCourseAdmin(request, context);
  return handleAdminSave({
    request,
    context,
    schema: lessonSchema,
    files: [{ file: "thumbnail_file", url: "thumbnail_url", folder: "thumbnails" }],
    save: (value, urls) => updateLesson(context.db, lessonId, value, urls),
    failure: (message) => `Falha ao atualizar aula: ${message}`,
    notFound: "Aula não encontrada",
    success: { to: lessonPath(lessonId), description: "Aula atualizada com sucesso" },
  });
}

export default function EditLesson() {
  const { lesson } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const closeTo = lessonPath(lesson.id);
  return (
    <AdminPanel title="Editar Aula" description={`${lesson.moduleTitle} · ${lesson.title}`} closeTo={closeTo}>
      <LessonForm lesson={lesson} actionData={actionData} action={`${closeTo}/edit`} closeTo={closeTo} />
    </AdminPanel>
  );
}
