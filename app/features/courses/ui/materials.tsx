// Lesson materials (spec §3 item, §5 removal, §8 messages): the list learners download from, and for
// admins the upload link and a remove control per item. Downloads go through the app
// (`…/materials/{file}/download`, an attachment); removal is a POST form that asks for confirmation —
// a dialog with JavaScript, a confirmation step on the materials page without it.
import type { MouseEvent } from "react";
import { Link, useLocation } from "react-router";
import { ConfirmForm } from "~/components/admin/ConfirmForm";
import { buttonVariants } from "~/components/button";
import { DownloadIcon, FileIcon, TrashIcon, UploadIcon } from "~/components/icons";
import { toast } from "~/components/Toaster";
import { materialDownloadPath, materialFileId, materialsPath, type MaterialView } from "../material-files";

export const REMOVE_CONFIRMATION = "Tem certeza que deseja remover este arquivo? Esta ação não pode ser desfeita.";
/** The removal's confirmation (dialog with JavaScript, a section of the materials page without). */
export const REMOVE_MATERIAL = { heading: "Remover arquivo", message: REMOVE_CONFIRMATION, confirmLabel: "Remover" } as const;

export type MaterialsListProps = {
  lessonId: string;
  materials: MaterialView[];
  canManage: boolean;
  /** The "Enviar material" link (hidden on the materials page itself). */
  showUploadLink?: boolean;
};

export function MaterialsList({ lessonId, materials, canManage, showUploadLink = true }: MaterialsListProps) {
  return (
    <div>
      {canManage && showUploadLink ? (
        <div className="mb-4 flex justify-end">
          <Link to={materialsPath(lessonId)} preventScrollReset className={buttonVariants({ size: "sm" })}>
            <UploadIcon size={20} />
            Enviar material
          </Link>
        </div>
      ) : null}
      {materials.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center dark:border-night-700">
          <p className="font-medium">Nenhum material disponível.</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Os arquivos de apoio desta aula aparecerão aqui.</p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Materiais da aula">
          {materials.map((material) => (
            <MaterialItem key={material.url} lessonId={lessonId} material={material} canManage={canManage} />
          ))}
        </ul>
      )}
    </div>
  );
}

function MaterialItem({ lessonId, material, canManage }: { lessonId: string; material: MaterialView; canManage: boolean }) {
  const href = materialDownloadPath(lessonId, material);
  const date = material.uploadedLabel;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-center dark:border-night-700 dark:bg-night-900">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-200">
          <FileIcon />
        </span>
        <div className="min-w-0">
          <p className="truncate font-medium" title={material.title}>
            {material.title}
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            <span className="font-semibold">{material.type}</span> · {material.size}
            {date ? <> · Enviado em {date}</> : null}
          </p>
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <a
          href={href}
          onClick={(event) => downloadWithFeedback(event, href, material.title)}
          className={buttonVariants({ variant: "secondary", size: "sm" })}
          aria-label={`Baixar ${material.title}`}
        >
          <DownloadIcon />
          Baixar
        </a>
        {canManage ? <RemoveMaterialForm lessonId={lessonId} material={material} /> : null}
      </div>
    </li>
  );
}

/**
 * With JavaScript: "Baixando: {title}", a HEAD request to know the file is there, then the browser's
 * own download (streamed, the page stays); "Erro ao baixar arquivo" otherwise. Without JS the link
 * downloads directly (and a failure comes back as a flash toast on the lesson page).
 */
async function downloadWithFeedback(event: MouseEvent<HTMLAnchorElement>, href: string, title: string) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  toast({ type: "info", title: `Baixando: ${title}` });
  try {
    const response = await fetch(href, { method: "HEAD", credentials: "same-origin" });
    if (!response.ok || !/attachment/i.test(response.headers.get("Content-Disposition") ?? "")) throw new Error(String(response.status));
    window.location.assign(href);
  } catch {
    toast({ type: "error", title: "Erro ao baixar arquivo" });
  }
}

/** A POST form per item. JS: the confirmation dialog, then the same form with `confirmed=yes`. */
function RemoveMaterialForm({ lessonId, material }: { lessonId: string; material: MaterialView }) {
  const location = useLocation();
  const redirectTo = location.pathname + location.search.replace(/([?&])remover=[^&]*&?/, "$1").replace(/[?&]$/, "");
  return (
    <ConfirmForm
      action={materialsPath(lessonId)}
      fields={{ intent: "remove", url: material.url, file: materialFileId(material), redirectTo }}
      confirmation={{ ...REMOVE_MATERIAL, subject: material.title }}
    >
      <button type="submit" aria-label={`Remover ${material.title}`} className={buttonVariants({ variant: "dangerOutline", size: "sm" })}>
        <TrashIcon />
        Remover
      </button>
    </ConfirmForm>
  );
}
