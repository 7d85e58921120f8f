// Controls only the admin forms have: a picture and a recording picker that show the current file,
// check a new one the way the server does (size, then content) and preview it; and the save/cancel
// row. The plain fields are the app's (~/components/forms).
import { useField, type FieldMetadata } from "@conform-to/react";
import { useEffect, useState, type ChangeEvent, type ReactNode } from "react";
import { Link } from "react-router";
import { buttonVariants, SubmitButton } from "~/components/button";
import { Field, FileField } from "~/components/forms";
import { chosenFileError, UPLOAD_ACCEPT, type UploadKind } from "~/lib/admin-forms";

/**
 * A chosen file, checked in the browser as the server checks it: its problem, or an object URL to
 * preview it (revoked when replaced or unmounted).
 */
function useChosenFile(kind: UploadKind) {
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    setPreview(null);
    setError(null);
    if (!file || file.size === 0) return;
    const problem = chosenFileError(kind, file.size, new Uint8Array(await file.slice(0, 256).arrayBuffer()));
    if (problem) setError(problem);
    else setPreview(URL.createObjectURL(file));
  };
  return { preview, error, onChange };
}

/** The file input of a picker: its kind's `accept`, and the browser's verdict on the chosen file. */
function ChosenFileInput({
  kind,
  meta,
  label,
  hint,
  chosen,
}: {
  kind: UploadKind;
  meta: FieldMetadata<unknown>;
  label: string;
  hint: ReactNode;
  chosen: ReturnType<typeof useChosenFile>;
}) {
  return (
    <FileField
      meta={meta}
      label={label}
      accept={UPLOAD_ACCEPT[kind]}
      hint={hint}
      error={chosen.error}
      className="mb-3"
      onChange={chosen.onChange}
    />
  );
}

const boxClass = "mb-5 rounded-xl border border-slate-200 p-4 dark:border-night-700";
const legendClass = "px-1 text-sm font-semibold text-slate-800 dark:text-slate-200";

/**
 * An image: the current picture (from the URL field, or `currentUrl`), a file input
 * (`accept="image/*"`) whose choice replaces it on save, and — with `urlMeta` — the URL itself for
 * pasting an address. With JS the chosen file is checked and previewed. `children` go under the
 * input (e.g. a "back to the original picture" checkbox).
 */
export function ImageField({
  urlMeta,
  currentUrl = null,
  fileMeta,
  label,
  alt,
  aspect = "aspect-[4/5]",
  hint = "JPG, PNG, GIF, WebP ou AVIF, até 5MB. A imagem é enviada ao salvar.",
  children,
}: {
  urlMeta?: FieldMetadata<string | undefined>;
  currentUrl?: string | null;
  fileMeta: FieldMetadata<unknown>;
  label: string;
  alt: string;
  aspect?: string;
  hint?: ReactNode;
  children?: ReactNode;
}) {
  const chosen = useChosenFile("image");
  const preview = { preview: chosen.preview, alt, aspect };
  return (
    <fieldset className={boxClass}>
      <legend className={legendClass}>{label}</legend>
      <div className="flex flex-col gap-4 sm:flex-row">
        {urlMeta ? <UrlImagePreview urlMeta={urlMeta} {...preview} /> : <ImagePreview url={currentUrl} {...preview} />}
        <div className="min-w-0 flex-1">
          <ChosenFileInput kind="image" meta={fileMeta} label="Enviar nova imagem" hint={hint} chosen={chosen} />
          {urlMeta ? <Field meta={urlMeta} label="Ou endereço da imagem" placeholder="https://…" className="mb-0" /> : null}
          {children}
        </div>
      </div>
    </fieldset>
  );
}

type PreviewProps = { preview: string | null; alt: string; aspect: string };

/** The picture of the URL field as it is being typed (or the chosen file's preview). */
function UrlImagePreview({ urlMeta: parent, ...props }: PreviewProps & { urlMeta: FieldMetadata<string | undefined> }) {
  const [meta] = useField<string>(parent.name, { formId: parent.formId });
  return <ImagePreview url={typeof meta.value === "string" && meta.value ? meta.value : null} {...props} />;
}

function ImagePreview({ url, preview, alt, aspect }: PreviewProps & { url: string | null }) {
  const current = preview ?? url;
  return (
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
        <span className="flex h-full items-center justify-center p-2 text-center text-xs text-slate-500 dark:text-slate-400">Sem imagem</span>
      )}
    </div>
  );
}

/**
 * A recording: a player of the current one (`currentUrl`, or what `emptyText` says when there is
 * none), a file input (`accept` audio types) whose choice replaces it on save — checked and playable
 * before saving with JS — and `children` under it.
 */
export function AudioField({
  currentUrl,
  fileMeta,
  label,
  emptyText,
  hint = "MP3, WAV, OGG, M4A ou WebM, até 2MB. O áudio é enviado ao salvar.",
  children,
}: {
  currentUrl: string | null;
  fileMeta: FieldMetadata<unknown>;
  label: string;
  emptyText: string;
  hint?: ReactNode;
  children?: ReactNode;
}) {
  const chosen = useChosenFile("audio");
  const current = chosen.preview ?? currentUrl;
  return (
    <fieldset className={boxClass}>
      <legend className={legendClass}>{label}</legend>
      {current ? (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- a recording of one word: the word itself is the form's first field
        <audio controls preload="none" src={current} className="mb-3 w-full" aria-label={`${label}: ouvir`} />
      ) : (
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{emptyText}</p>
      )}
      <ChosenFileInput kind="audio" meta={fileMeta} label="Enviar novo áudio" hint={hint} chosen={chosen} />
      {children}
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
