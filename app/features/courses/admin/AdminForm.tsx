// The frame every admin edit form shares: a multipart conform form posting to its route (anchored to
// the panel without JS), the server's notice before hydration, toasts after, form-level errors, and the
// save/cancel row.
import { FormProvider, getFormProps, type FormMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useAnchoredAction, useHydrated } from "./AdminPanel";
import { FormActions, FormNotice } from "./fields";
import { useImageSavedToast, useNoticeToast, useSubmitting, type AdminActionData } from "./form-state";

type AdminFormProps = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any>;
  action: string;
  actionData?: AdminActionData;
  closeTo: string;
  submitLabel: string;
  children: ReactNode;
};

export function AdminForm({ form, action, actionData, closeTo, submitLabel, children }: AdminFormProps) {
  const hydrated = useHydrated();
  useNoticeToast(actionData?.notice);
  useImageSavedToast(action);
  const pending = useSubmitting(action);
  const formAction = useAnchoredAction(action);
  return (
    <FormProvider context={form.context}>
      <Form method="post" action={formAction} encType="multipart/form-data" preventScrollReset {...getFormProps(form)}>
        {hydrated ? null : <FormNotice notice={actionData?.notice} />}
        {form.errors?.length ? <p className="mb-4 text-sm text-red-700 dark:text-red-400">{form.errors[0]}</p> : null}
        {children}
        <FormActions closeTo={closeTo} pending={pending}>
          {pending ? "Salvando..." : submitLabel}
        </FormActions>
      </Form>
    </FormProvider>
  );
}
