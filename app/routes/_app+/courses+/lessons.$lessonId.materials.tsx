// /courses/lessons/:lessonId/materials — the admin's materials drawer over the lesson page: upload one
// file (multipart, streamed to R2) and remove files (with a confirmation step). Admins only.
import { redirect, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { ADMIN_PANEL_ID, AdminPanel, useAnchoredAction } from "~/components/admin/AdminPanel";
import { ConfirmSection } from "~/components/admin/ConfirmForm";
import { requireCourseAdmin } from "~/features/courses/admin/actions.server";
import { MaterialUpload } from "~/features/courses/admin/MaterialUpload";
import { MESSAGES } from "~/features/courses/admin/schemas";
import { materialFileId, materialsPath, withUploadLabels } from "~/features/courses/material-files";
import { findLessonMaterials, removeMaterial, uploadMaterial } from "~/features/courses/materials.server";
import { MaterialsList, REMOVE_MATERIAL } from "~/features/courses/ui/materials";
import type { RouteHandle } from "~/lib/access";
import type { AdminRefusal } from "~/lib/admin-forms";
import { adminReply, refusalResult } from "~/server/admin-forms.server";
import { safeRedirect } from "~/server/auth.server";
import { bodyKind, notFound, parseForm, requireUuidParam } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/lessons.$lessonId.materials";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Materiais da aula — Nika" }];

const lessonPath = (id: string) => `/courses/lessons/${id}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireCourseAdmin(request, context);
  const lesson = await findLessonMaterials(context.db, params.lessonId!);
  if (!lesson) throw notFound("Aula não encontrada");
  // Without JavaScript, removal goes through this confirmation step (?remover={file}).
  const removing = new URL(request.url).searchParams.get("remover");
  const confirm = removing ? (lesson.materials.find((m) => materialFileId(m) === removing) ?? null) : null;
  return { lesson: { ...lesson, materials: withUploadLabels(lesson.materials) }, confirm };
}

/** The one non-upload action: removing a material (`confirmed=yes` after the no-JS confirmation step). */
const removeMaterialSchema = z.object({
  intent: z.literal("remove"),
  url: z.string().max(2000).default(""),
  file: z.string().max(300).optional(),
  confirmed: z.literal("yes").optional(),
  redirectTo: z.string().max(2000).optional(),
});

/** An upload refused: the body is read by the upload itself, so there is no submission to reply with. */
const uploadRefusal = (code: AdminRefusal, status: number, description: string) =>
  adminReply(refusalResult(["Erro no upload", description]), code, status);

export async function action({ request, context, params }: Route.ActionArgs) {
  const lessonId = requireUuidParam(params, "lessonId", "Aula não encontrada");
  await requireCourseAdmin(request, context);
  const here = materialsPath(lessonId);

  if (bodyKind(request) === "multipart") {
    const outcome = await uploadMaterial(context, request, lessonId);
    switch (outcome.status) {
      case "ok":
        return redirectWithToast(context.cloudflare.env, `${here}#${ADMIN_PANEL_ID}`, {
          type: "success",
          title: "Upload concluído!",
          description: "Arquivo disponível para estudantes.",
        });
      case "not_found":
        return uploadRefusal("not_found", 404, "Aula não encontrada");
      case "no_file":
        return uploadRefusal("no_file", 400, "Selecione um arquivo para enviar");
      case "too_large":
        return uploadRefusal("file_too_large", 413, MESSAGES.materialTooLarge);
      case "unreadable":
        return uploadRefusal("unreadable", 400, outcome.message);
      case "storage_failed":
        return uploadRefusal("storage_failed", 500, outcome.message);
      case "save_failed":
        return uploadRefusal("save_failed", 500, `Falha ao salvar informações do arquivo: ${outcome.message}`);
    }
  }

  const submission = await parseForm(request, removeMaterialSchema);
  if (submission.status !== "success") return adminReply(submission.reply({ formErrors: ["Erro", "Ação desconhecida"] }), "unknown_intent", 400);
  const { url, file, confirmed, redirectTo } = submission.value;
  const back = safeRedirect(redirectTo, lessonPath(lessonId));
  if (!confirmed) {
    // No JavaScript: ask first (spec §5), on this page.
    const fileId = file || materialFileId({ url });
    return redirect(`${here}?remover=${encodeURIComponent(fileId)}#${ADMIN_PANEL_ID}`);
  }
  const outcome = await removeMaterial(context, lessonId, url);
  switch (outcome.status) {
    case "ok":
      return redirectWithToast(context.cloudflare.env, back, { type: "success", title: "Arquivo removido" });
    case "invalid_url":
      return redirectWithToast(context.cloudflare.env, back, { type: "error", title: "Erro ao remover arquivo", description: "URL inválida" });
    case "not_found":
      return redirectWithToast(context.cloudflare.env, back, {
        type: "error",
        title: "Erro ao remover arquivo",
        description: "Arquivo não encontrado",
      });
    case "failed":
      return redirectWithToast(context.cloudflare.env, back, { type: "error", title: "Erro ao remover arquivo", description: outcome.message });
  }
}

export default function LessonMaterials() {
  const { lesson, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const here = materialsPath(lesson.id);
  const confirmAction = useAnchoredAction(here);
  return (
    <AdminPanel title="Materiais da aula" description={lesson.title} closeTo={lessonPath(lesson.id)}>
      {confirm ? (
        <ConfirmSection
          id="confirmar-remocao"
          action={confirmAction}
          fields={{ intent: "remove", url: confirm.url, redirectTo: `${here}#${ADMIN_PANEL_ID}` }}
          cancelTo={here}
          confirmation={{ ...REMOVE_MATERIAL, subject: confirm.title }}
        />
      ) : null}
      <h3 className="mb-3 text-base font-semibold">Enviar material</h3>
      {/* A new list (upload or removal done) starts a fresh form. */}
      <MaterialUpload key={lesson.materials.map((m) => m.url).join("|")} action={here} actionData={actionData} />
      <h3 className="mt-8 mb-3 text-base font-semibold">Arquivos desta aula</h3>
      <MaterialsList lessonId={lesson.id} materials={lesson.materials} canManage showUploadLink={false} />
    </AdminPanel>
  );
}
