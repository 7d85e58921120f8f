// The frame every admin edit form shares: a multipart conform form posting to its route (anchored to
// the panel without JS), the server's notice before hydration, toasts after, form-level errors, and the
// save/cancel row.
import type { FormMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { ConformForm } from "~/components/forms";
import { NoticeBox } from "~/components/notice";
import { useAnchoredAction, useHydrated } from "./AdminPanel";
import { FormActions } from "./fields";
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
    <ConformForm form={form} action={formAction} encType="multipart/form-data" preventScrollReset>
      {hydrated ? null : <NoticeBox notice={actionData?.notice} />}
      {form.errors?.length ? <p className="mb-4 text-sm text-red-700 dark:text-red-400">{form.errors[0]}</p> : null}
      {children}
      <FormActions closeTo={closeTo} pending={pending} pendingText="Salvando...">
        {submitLabel}
      </FormActions>
    </ConformForm>
  );
}
