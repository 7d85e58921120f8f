// Building blocks of the auth pages: the card, labelled fields with their errors, alerts and a
// submit button that shows progress when JavaScript is on.
import {
  FormProvider, getFormProps, getInputProps, useField, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { NikaLogo } from "~/features/shell/icons";
import { Form, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main id="conteudo" className="flex min-h-dvh items-center justify-center px-4 py-10">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-xl sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <p className="mb-6 flex items-center gap-2 text-lg font-bold text-indigo-700 dark:text-indigo-300">
          <NikaLogo size={36} />
          Nika
        </p>
        <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{title}</h1>
        {subtitle ? <div className="mt-2 text-sm text-slate-600 dark:text-slate-300">{subtitle}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

/**
 * conform form state for a zod schema, shared by every auth form: validated in the browser on submit,
 * revalidated on input (errors clear while typing), and showing the server's reply when JS is off.
 */
export function useSchemaForm<Schema extends z.ZodType<Record<string, unknown>>>(schema: Schema, lastResult?: SubmissionResult<string[]> | null) {
  type Fields = z.input<Schema> & Record<string, unknown>;
  return useForm<Fields, z.output<Schema>>({
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/**
 * A conform-managed `<Form method="post">`. Fields read their state through the provider (useField),
 * so each one re-renders with its own errors — also on the first submit after hydration.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ConformForm({ form, children }: { form: FormMetadata<any>; children: ReactNode }) {
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)}>
        {children}
      </Form>
    </FormProvider>
  );
}

type FieldProps = {
  meta: FieldMetadata<string>;
  label: string;
  type?: "text" | "email" | "password" | "tel" | "hidden";
  autoComplete?: string;
  placeholder?: string;
  minLength?: number;
  maxLength?: number;
  inputMode?: "email" | "tel" | "text";
};

export function Field({ meta: fieldFromParent, label, type = "text", autoComplete, placeholder, minLength, maxLength, inputMode }: FieldProps) {
  const [meta] = useField<string>(fieldFromParent.name, { formId: fieldFromParent.formId });
  const errorId = `${meta.id}-error`;
  const error = meta.errors?.[0];
  const { key, ...inputProps } = getInputProps(meta, { type, ariaAttributes: true });
  return (
    <div className="mb-4">
      <label htmlFor={meta.id} className="mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        key={key}
        {...inputProps}
        required={false}
        aria-describedby={error ? errorId : undefined}
        autoComplete={autoComplete}
        placeholder={placeholder}
        minLength={minLength}
        maxLength={maxLength}
        inputMode={inputMode}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 aria-[invalid=true]:border-red-600 dark:border-slate-700 dark:bg-slate-950 dark:text-white dark:placeholder:text-slate-400"
      />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export type Notice = { tone: "error" | "success" | "info"; title: string; description?: string };

export function NoticeBox({ notice, children }: { notice: Notice; children?: ReactNode }) {
  const tones = {
    error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100",
    success: "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100",
    info: "border-indigo-300 bg-indigo-50 text-indigo-900 dark:border-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-100",
  };
  return (
    <div role={notice.tone === "error" ? "alert" : "status"} className={`mb-4 rounded-lg border p-3 text-sm ${tones[notice.tone]}`}>
      <p className="font-semibold">{notice.title}</p>
      {notice.description ? <p className="mt-1">{notice.description}</p> : null}
      {children}
    </div>
  );
}

export function SubmitButton({ children, pendingText, disabled }: { children: ReactNode; pendingText: string; disabled?: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  return (
    <button
      type="submit"
      disabled={pending || disabled}
      className="w-full rounded-lg bg-indigo-600 px-4 py-2.5 font-semibold text-white hover:bg-indigo-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60 dark:focus-visible:ring-offset-slate-900"
    >
      {pending ? pendingText : children}
    </button>
  );
}

export const linkClass =
  "font-medium text-indigo-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 rounded dark:text-indigo-300";

/**
 * Goes to `to` after `seconds` (spec: 2 s after a confirmation or a reset). With JavaScript a timer
 * navigates; without it a meta refresh inside <noscript> does the same.
 */
export function DelayedRedirect({ to, seconds }: { to: string; seconds: number }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(to, { replace: true }), seconds * 1000);
    return () => clearTimeout(timer);
  }, [to, seconds, navigate]);
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
    </noscript>
  );
}
