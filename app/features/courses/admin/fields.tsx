// Form controls of the admin forms (conform-managed): text, number, textarea, select, checkbox and an
// image picker that shows the current picture, mirrors the server's checks, and previews a new file.
import { getInputProps, getSelectProps, getTextareaProps, useField, type FieldMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { NoticeBox, type Notice } from "~/features/auth/ui";
import { IMAGE_MAX_BYTES, sniffImage } from "~/lib/media";
import { MESSAGES } from "./schemas";

export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 aria-[invalid=true]:border-red-600 dark:border-night-700 dark:bg-night-950 dark:text-white dark:placeholder:text-slate-400";
const labelClass = "mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200";
const hintClass = "mt-1 text-xs text-slate-600 dark:text-slate-400";

function FieldShell({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="mb-4">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Common = { meta: FieldMetadata<any>; label: string; hint?: ReactNode; placeholder?: string };

export function TextField({ meta: parentMeta, label, hint, placeholder, type = "text", maxLength, min, inputMode }: Common & {
  type?: "text" | "url" | "number";
  maxLength?: number;
  min?: number;
  inputMode?: "numeric" | "url" | "text";
}) {
  const [meta] = useField<string>(parentMeta.name as string, { formId: parentMeta.formId });
  const error = meta.errors?.[0];
  const { key, ...props } = getInputProps(meta, { type, ariaAttributes: true });
  return (
    <FieldShell id={meta.id} label={label} error={error} hint={hint}>
      <input
        key={key}
        {...props}
        required={false}
        min={min}
        maxLength={maxLength}
        inputMode={inputMode}
        placeholder={placeholder}
        aria-describedby={describedBy(meta.id, error, hint)}
        className={inputClass}
      />
    </FieldShell>
  );
}

export function TextAreaField({ meta: parentMeta, label, hint, placeholder, rows = 3, maxLength, mono }: Common & { rows?: number; maxLength?: number; mono?: boolean }) {
  const [meta] = useField<string>(parentMeta.name as string, { formId: parentMeta.formId });
  const error = meta.errors?.[0];
  const { key, ...props } = getTextareaProps(meta, { ariaAttributes: true });
  return (
    <FieldShell id={meta.id} label={label} error={error} hint={hint}>
      <textarea
        key={key}
        {...props}
        required={false}
        rows={rows}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-describedby={describedBy(meta.id, error, hint)}
        className={`${inputClass} ${mono ? "font-mono text-sm" : ""}`}
      />
    </FieldShell>
  );
}

export function SelectField({ meta: parentMeta, label, hint, options }: Common & { options: { value: string; label: string }[] }) {
  const [meta] = useField<string>(parentMeta.name as string, { formId: parentMeta.formId });
  const error = meta.errors?.[0];
  const { key, ...props } = getSelectProps(meta, { ariaAttributes: true });
  return (
    <FieldShell id={meta.id} label={label} error={error} hint={hint}>
      <select key={key} {...props} required={false} aria-describedby={describedBy(meta.id, error, hint)} className={inputClass}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

export function CheckboxField({ meta: parentMeta, label, hint }: { meta: FieldMetadata<boolean | undefined>; label: string; hint?: ReactNode }) {
  const [meta] = useField<boolean>(parentMeta.name, { formId: parentMeta.formId });
  const { key, ...props } = getInputProps(meta, { type: "checkbox", ariaAttributes: true });
  return (
    <div className="mb-4 flex items-start gap-3">
      <input key={key} {...props} required={false} className="mt-1 size-5 shrink-0 accent-indigo-600" aria-describedby={hint ? `${meta.id}-hint` : undefined} />
      <div>
        <label htmlFor={meta.id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {label}
        </label>
        {hint ? (
          <p id={`${meta.id}-hint`} className={hintClass}>
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * An image: the current picture (from the URL field), a file input (`accept="image/*"`) whose choice
 * replaces it on save, and the URL itself for pasting an address. With JS the chosen file is previewed.
 */
export function ImageField({
  urlMeta: parentUrl,
  fileMeta: parentFile,
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
  const [fileMeta] = useField<unknown>(parentFile.name, { formId: parentFile.formId });
  const [preview, setPreview] = useState<string | null>(null);
  const [notImage, setNotImage] = useState(false);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const current = preview ?? (typeof urlMeta.value === "string" && urlMeta.value ? urlMeta.value : null);
  // The browser mirrors the server's check by content: the first bytes must be a JPEG/PNG/GIF/WebP/AVIF.
  const fileError = fileMeta.errors?.[0] ?? (notImage ? MESSAGES.imageType : undefined);
  const urlError = urlMeta.errors?.[0];
  const { key: fileKey, ...fileProps } = getInputProps(fileMeta, { type: "file", ariaAttributes: true });
  const { key: urlKey, ...urlProps } = getInputProps(urlMeta, { type: "text", ariaAttributes: true });
  const hintId = `${fileMeta.id}-hint`;

  return (
    <fieldset className="mb-5 rounded-xl border border-slate-200 p-4 dark:border-night-700">
      <legend className="px-1 text-sm font-semibold text-slate-800 dark:text-slate-200">{label}</legend>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div className={`${aspect} w-28 shrink-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-100 dark:border-night-700 dark:bg-night-800`}>
          {current ? (
            <img src={current} alt={alt} className="h-full w-full object-cover" onError={(event) => (event.currentTarget.style.visibility = "hidden")} />
          ) : (
            <span className="flex h-full items-center justify-center p-2 text-center text-xs text-slate-500 dark:text-slate-400">Sem imagem</span>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <label htmlFor={fileMeta.id} className={labelClass}>
            Enviar nova imagem
          </label>
          <input
            key={fileKey}
            {...fileProps}
            required={false}
            accept="image/*"
            aria-describedby={[hintId, fileError ? `${fileMeta.id}-error` : null].filter(Boolean).join(" ")}
            onChange={async (event) => {
              const file = event.currentTarget.files?.[0];
              setPreview(null);
              setNotImage(false);
              if (!file || file.size === 0) return;
              const image = sniffImage(new Uint8Array(await file.slice(0, 64).arrayBuffer()));
              if (image && file.size <= IMAGE_MAX_BYTES) setPreview(URL.createObjectURL(file));
              else setNotImage(true);
            }}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-600 file:px-3 file:py-2 file:font-semibold file:text-white hover:file:bg-indigo-500 dark:text-slate-200"
          />
          <p id={hintId} className={hintClass}>
            JPG, PNG, GIF, WebP ou AVIF, até 5MB. A imagem é enviada ao salvar.
          </p>
          {fileError ? (
            <p id={`${fileMeta.id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
              {fileError}
            </p>
          ) : null}
          <label htmlFor={urlMeta.id} className={`${labelClass} mt-3`}>
            Ou endereço da imagem
          </label>
          <input
            key={urlKey}
            {...urlProps}
            required={false}
            placeholder="https://…"
            aria-describedby={urlError ? `${urlMeta.id}-error` : undefined}
            className={inputClass}
          />
          {urlError ? (
            <p id={`${urlMeta.id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
              {urlError}
            </p>
          ) : null}
        </div>
      </div>
    </fieldset>
  );
}

export function FormNotice({ notice }: { notice: Notice | null | undefined }) {
  return notice ? <NoticeBox notice={notice} /> : null;
}

export function FormActions({ closeTo, pending, children }: { closeTo: string; pending: boolean; children: ReactNode }) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <Link
        to={closeTo}
        preventScrollReset
        className="inline-flex items-center justify-center rounded-lg border border-slate-300 px-4 py-2.5 font-semibold text-slate-800 hover:bg-slate-100 dark:border-night-700 dark:text-slate-100 dark:hover:bg-night-800"
      >
        Cancelar
      </Link>
      <button
        type="submit"
        disabled={pending}
        className="inline-flex items-center justify-center rounded-lg bg-indigo-600 px-5 py-2.5 font-semibold text-white hover:bg-indigo-500 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {children}
      </button>
    </div>
  );
}
