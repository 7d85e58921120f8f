// /courses/lessons/:lessonId/materials — the admin's materials drawer over the lesson page: upload one
// file (multipart, streamed to R2) and remove files (with a confirmation step). Admins only.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireCourseAdmin } from "~/features/courses/admin/actions.server";
import { ADMIN_PANEL_ID, AdminPanel, useAnchoredAction } from "~/features/courses/admin/AdminPanel";
import type { AdminActionData } from "~/features/courses/admin/form-state";
import { MaterialUpload } from "~/features/courses/admin/MaterialUpload";
import { MESSAGES } from "~/features/courses/admin/schemas";
import { materialFileId, materialsPath } from "~/features/courses/material-files";
import { MaterialsList } from "~/features/courses/materials";
import { findLessonMaterials, removeMaterial, uploadMaterial } from "~/features/courses/materials.server";
import type { RouteHandle } from "~/lib/access";
import { safeRedirect } from "~/server/auth.server";
import { bodyKind, readFormData, requireUuidParam } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";

export const handle: RouteHandle = { access: "admin" };

export const meta: MetaFunction = () => [{ title: "Materiais da aula — Nika" }];

const lessonPath = (id: string) => `/courses/lessons/${id}`;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireCourseAdmin(request, context);
  const lesson = await findLessonMaterials(context.db, params.lessonId!);
  if (!lesson) throw data({ message: "Aula não encontrada" }, { status: 404 });
  // Without JavaScript, removal goes through this confirmation step (?remover={file}).
  const removing = new URL(request.url).searchParams.get("remover");
  const confirm = removing ? (lesson.materials.find((m) => materialFileId(m) === removing) ?? null) : null;
  return { lesson, confirm };
}

/** The one non-upload action: removing a material (`confirmed=yes` after the no-JS confirmation step). */
const removeMaterialSchema = z.object({
  intent: z.literal("remove"),
  url: z.string().max(2000).default(""),
  file: z.string().max(300).optional(),
  confirmed: z.literal("yes").optional(),
  redirectTo: z.string().max(2000).optional(),
});

const notice = (title: string, description?: string): AdminActionData => ({ result: null, notice: { tone: "error", title, description } });

export async function action({ request, context, params }: ActionFunctionArgs) {
  const lessonId = requireUuidParam(params, "lessonId", "Aula não encontrada");
  await requireCourseAdmin(request, context);
  const here = materialsPath(lessonId);

  if (bodyKind(request) === "multipart") {
    const outcome = await uploadMaterial(context, request, lessonId);
    switch (outcome.status) {
      case "ok":
        return redirectWithToast(`${here}#${ADMIN_PANEL_ID}`, {
          type: "success",
          title: "Upload concluído!",
          description: "Arquivo disponível para estudantes.",
        });
      case "not_found":
        return data(notice("Erro no upload", "Aula não encontrada"), { status: 404 });
      case "no_file":
        return data(notice("Erro no upload", "Selecione um arquivo para enviar"), { status: 400 });
      case "too_large":
        return data(notice("Erro no upload", MESSAGES.materialTooLarge), { status: 413 });
      case "unreadable":
        return data(notice("Erro no upload", outcome.message), { status: 400 });
      case "storage_failed":
        return data(notice("Erro no upload", outcome.message), { status: 500 });
      case "save_failed":
        return data(notice("Erro no upload", `Falha ao salvar informações do arquivo: ${outcome.message}`), { status: 500 });
    }
  }

  const submission = parseWithZod(await readFormData(request), { schema: removeMaterialSchema });
  if (submission.status !== "success") return data(notice("Erro", "Ação desconhecida"), { status: 400 });
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
      return redirectWithToast(back, { type: "success", title: "Arquivo removido" });
    case "invalid_url":
      return redirectWithToast(back, { type: "error", title: "Erro ao remover arquivo", description: "URL inválida" });
    case "not_found":
      return redirectWithToast(back, { type: "error", title: "Erro ao remover arquivo", description: "Arquivo não encontrado" });
    case "failed":
      return redirectWithToast(back, { type: "error", title: "Erro ao remover arquivo", description: outcome.message });
  }
}

export default function LessonMaterials() {
  const { lesson, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as AdminActionData | undefined;
  const here = materialsPath(lesson.id);
  const confirmAction = useAnchoredAction(here);
  return (
    <AdminPanel title="Materiais da aula" description={lesson.title} closeTo={lessonPath(lesson.id)}>
      {confirm ? (
        <div
          role="alertdialog"
          aria-labelledby="confirmar-remocao"
          className="mb-6 rounded-xl border border-rose-300 bg-rose-50 p-4 dark:border-rose-800 dark:bg-rose-950/40"
        >
          <h3 id="confirmar-remocao" className="font-semibold">
            Remover arquivo
          </h3>
          <p className="mt-1 text-sm">Tem certeza que deseja remover este arquivo? Esta ação não pode ser desfeita.</p>
          <p className="mt-2 truncate text-sm font-medium">{confirm.title}</p>
          <Form method="post" action={confirmAction} className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="url" value={confirm.url} />
            <input type="hidden" name="confirmed" value="yes" />
            <input type="hidden" name="redirectTo" value={`${here}#${ADMIN_PANEL_ID}`} />
            <Link
              to={here}
              className="inline-flex items-center justify-center rounded-lg border border-slate-300 px-4 py-2.5 font-semibold dark:border-night-700"
            >
              Cancelar
            </Link>
            <button
              type="submit"
              className="inline-flex items-center justify-center rounded-lg bg-rose-600 px-4 py-2.5 font-semibold text-white hover:bg-rose-500"
            >
              Remover
            </button>
          </Form>
        </div>
      ) : null}
      <h3 className="mb-3 text-base font-semibold">Enviar material</h3>
      {/* A new list (upload or removal done) starts a fresh form. */}
      <MaterialUpload key={lesson.materials.map((m) => m.url).join("|")} action={here} actionData={actionData} />
      <h3 className="mt-8 mb-3 text-base font-semibold">Arquivos desta aula</h3>
      <MaterialsList lessonId={lesson.id} materials={lesson.materials} canManage showUploadLink={false} />
    </AdminPanel>
  );
}
