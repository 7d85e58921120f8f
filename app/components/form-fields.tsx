// The app's forms without a schema library: the conform form that provides its state, one family of labelled fields
// (input, textarea, select, checkbox, file) with hints and errors, and `useServerForm` for a form whose rules the
// server alone checks. Kept free of zod so that a page whose forms need no browser validation (the lesson's comments,
// /config's profile) does not download it (decision 0019); `~/components/forms` adds
// `useSchemaForm` on top.
// Every field reads its own state through conform's useField, so it re-renders with its errors — also on the first
// submit after hydration. Without JavaScript the server's reply (lastResult) fills them.
import {
  FormProvider,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  parse,
  useField,
  useForm,
  type FieldMetadata,
  type FormMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import type { ChangeEvent, InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { Form, type FormProps } from "react-router";
import { cn } from "./cn";

export type ServerFormOptions = {
  /** Stable id when the page can show the same form for different records. */
  id?: string;
  defaultValue?: Record<string, unknown>;
  /** The fields' HTML constraints (required, maxLength…), as `getZodConstraint` would give them. */
  constraint?: NonNullable<Parameters<typeof useForm>[0]>["constraint"];
};

/**
 * conform form state without validation in the browser: every submit goes to the server, whose reply (`lastResult`)
 * shows the errors with or without JavaScript. For forms whose browser-side rules are only HTML constraints (a submit
 * disabled while blank, a `maxLength`) and whose other refusals may wait for the server's reply (the lesson's comment,
 * /config's WhatsApp and e-mail formats): one round trip on a typo instead of a schema library on every visit.
 * conform's own intents (`form.reset()`)
 * are still resolved in the browser — without `onValidate` conform would post them to the server — and nothing is
 * sent while typing (no revalidation on input).
 */
export function useServerForm<Fields extends Record<string, unknown>>(
  lastResult?: SubmissionResult<string[]> | null,
  { id, defaultValue, constraint }: ServerFormOptions = {},
) {
  return useForm<Fields>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
    // The value is the form data as sent: the server parses it with the real schema.
    onValidate: ({ formData }) => parse(formData, { resolve: (value) => ({ value: value as Fields }) }),
  });
}

/** A conform-managed `<Form method="post">` (other Form props, e.g. action or encType, pass through). */
export function ConformForm({
  form,
  children,
  ...props
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any>;
  children: ReactNode;
} & Omit<FormProps, "method" | "id" | "onSubmit" | "noValidate" | "children">) {
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...props} {...getFormProps(form)}>
        {children}
      </Form>
    </FormProvider>
  );
}

// ——— fields ———

export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 aria-[invalid=true]:border-red-600 dark:border-night-700 dark:bg-night-950 dark:text-white dark:placeholder:text-slate-400";
export const labelClass = "mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200";
const hintClass = "mt-1 text-xs text-slate-600 dark:text-slate-400";
const errorClass = "mt-1 text-sm text-red-700 dark:text-red-400";

/** A field's metadata from useSchemaForm (any value type: text, numbers, files). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFieldMetadata = FieldMetadata<any>;

/** `aria-describedby` of a control: its hint and its error, when shown. */
export const describedBy = (id: string, error?: string, hint?: ReactNode) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

/** Label, control, hint and error, spaced like every other field. */
export function FieldShell({
  id,
  label,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("mb-4", className)}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className={errorClass}>
      {error}
    </p>
  ) : null;
}

/** The field's live state (read through the form's provider) and its first error. */
function useFieldState(parent: AnyFieldMetadata) {
  const [meta] = useField<string>(parent.name as string, { formId: parent.formId });
  return { meta, error: meta.errors?.[0] };
}

type Common = { meta: AnyFieldMetadata; label: string; hint?: ReactNode; placeholder?: string; className?: string };

export type FieldProps = Common &
  Pick<InputHTMLAttributes<HTMLInputElement>, "autoComplete" | "minLength" | "maxLength" | "min" | "inputMode" | "list"> & {
    type?: "text" | "email" | "password" | "tel" | "url" | "number";
  };

/** A labelled <input>. The browser's `required` is left off: the schema's messages are the ones shown. */
export function Field({ meta: parent, label, hint, className, type = "text", ...attributes }: FieldProps) {
  const { meta, error } = useFieldState(parent);
  const { key, ...props } = getInputProps(meta, { type, ariaAttributes: true });
  return (
    <FieldShell id={meta.id} label={label} error={error} hint={hint} className={className}>
      <input key={key} {...props} {...attributes} required={false} aria-describedby={describedBy(meta.id, error, hint)} className={inputClass} />
    </FieldShell>
  );
}

export type TextareaFieldProps = Common & Pick<TextareaHTMLAttributes<HTMLTextAreaElement>, "rows" | "maxLength"> & { mono?: boolean };

export function TextareaField({ meta: parent, label, hint, className, rows = 3, mono, ...attributes }: TextareaFieldProps) {
  const { meta, error } = useFieldState(parent);
  const { key, ...props } = getTextareaProps(meta, { ariaAttributes: true });
  return (
    <FieldShell id={meta.id} label={label} error={error} hint={hint} className={className}>
      <textarea
        key={key}
        {...props}
        {...attributes}
        rows={rows}
        required={false}
        aria-describedby={describedBy(meta.id, error, hint)}
        className={cn(inputClass, mono && "font-mono text-sm")}
      />
    </FieldShell>
  );
}

export function SelectField({
  meta: parent,
  label,
  hint,
  className,
  options,
}: Omit<Common, "placeholder"> & { options: { value: string; label: string }[] }) {
  const { meta, error } = useFieldState(parent);
  const { key, ...props } = getSelectProps(meta, { ariaAttributes: true });
  return (
    <FieldShell id={meta.id} label={label} error={error} hint={hint} className={className}>
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

export function CheckboxField({ meta: parent, label, hint }: { meta: FieldMetadata<boolean | undefined>; label: string; hint?: ReactNode }) {
  const [meta] = useField<boolean>(parent.name, { formId: parent.formId });
  const { key, ...props } = getInputProps(meta, { type: "checkbox", ariaAttributes: true });
  return (
    <div className="mb-4 flex items-start gap-3">
      <input
        key={key}
        {...props}
        required={false}
        className="mt-1 size-5 shrink-0 accent-indigo-600"
        aria-describedby={hint ? `${meta.id}-hint` : undefined}
      />
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
 * A labelled file input. `error` is a problem found in the browser (e.g. by `onChange` looking at the
 * chosen file); the schema's or the server's error wins over it.
 */
export function FileField({
  meta: parent,
  label,
  hint,
  className,
  accept,
  error: clientError,
  onChange,
}: Omit<Common, "placeholder"> & { accept?: string; error?: string | null; onChange?: (event: ChangeEvent<HTMLInputElement>) => void }) {
  const { meta, error: formError } = useFieldState(parent);
  const error = formError ?? clientError ?? undefined;
  const { key, ...props } = getInputProps(meta, { type: "file", ariaAttributes: true });
  return (
    <FieldShell id={meta.id} label={label} error={error} hint={hint} className={className}>
      <input
        key={key}
        {...props}
        required={false}
        accept={accept}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(meta.id, error, hint)}
        onChange={onChange}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-600 file:px-3 file:py-2 file:font-semibold file:text-white hover:file:bg-indigo-500 dark:text-slate-200"
      />
    </FieldShell>
  );
}
