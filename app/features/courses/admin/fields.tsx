// Controls only the admin forms have: an image picker that shows the current picture, checks a new
// file the way the server does (size, then content) and previews it; and the save/cancel row. The
// plain fields are the app's (~/components/forms).
import { useField, type FieldMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { buttonVariants, SubmitButton } from "~/components/button";
import { Field, FileField } from "~/components/forms";
import { chosenImageError } from "./schemas";

/**
 * An image: the current picture (from the URL field), a file input (`accept="image/*"`) whose choice
 * replaces it on save, and the URL itself for pasting an address. With JS the chosen file is checked
 * and previewed.
 */
export function ImageField({
  urlMeta: parentUrl,
  fileMeta,
  label,
  alt,
  aspect = "aspect-[4/5]",
}: {
  urlMeta: FieldMetadata<string | undefined>;
  fileMeta: FieldMetadata<unknown>;
  label: string;
  alt: string;
  aspect?: string;
}) {
  const [urlMeta] = useField<string>(parentUrl.name, { formId: parentUrl.formId });
  const [preview, setPreview] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const current = preview ?? (typeof urlMeta.value === "string" && urlMeta.value ? urlMeta.value : null);

  return (
    <fieldset className="mb-5 rounded-xl border border-slate-200 p-4 dark:border-night-700">
      <legend className="px-1 text-sm font-semibold text-slate-800 dark:text-slate-200">{label}</legend>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div
          className={`${aspect} w-28 shrink-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-100 dark:border-night-700 dark:bg-night-800`}
        >
          {current ? (
            <img
              src={current}
              alt={alt}
              className="h-full w-full object-cover"
              onError={(event) => (event.currentTarget.style.visibility = "hidden")}
            />
          ) : (
            <span className="flex h-full items-center justify-center p-2 text-center text-xs text-slate-500 dark:text-slate-400">
              Sem imagem
            </span>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <FileField
            meta={fileMeta}
            label="Enviar nova imagem"
            accept="image/*"
            hint="JPG, PNG, GIF, WebP ou AVIF, até 5MB. A imagem é enviada ao salvar."
            error={fileError}
            className="mb-3"
            onChange={async (event) => {
              const file = event.currentTarget.files?.[0];
              setPreview(null);
              setFileError(null);
              if (!file || file.size === 0) return;
              const problem = chosenImageError(file.size, new Uint8Array(await file.slice(0, 64).arrayBuffer()));
              if (problem) setFileError(problem);
              else setPreview(URL.createObjectURL(file));
            }}
          />
          <Field meta={parentUrl} label="Ou endereço da imagem" placeholder="https://…" className="mb-0" />
        </div>
      </div>
    </fieldset>
  );
}

/** Cancelar (back to the page under the panel) and the submit button. */
export function FormActions({
  closeTo,
  pending,
  pendingText,
  children,
}: {
  closeTo: string;
  pending: boolean;
  pendingText: string;
  children: ReactNode;
}) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "secondary", size: "lg" })}>
        Cancelar
      </Link>
      <SubmitButton size="lg" pending={pending} pendingText={pendingText}>
        {children}
      </SubmitButton>
    </div>
  );
}
