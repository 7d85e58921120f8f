// The frame every admin edit form shares: a multipart conform form posting to its route (anchored to
// the panel without JS), the action's form errors (inline before hydration, a toast after), and the
// save/cancel row.
import type { FormMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { ConformForm } from "~/components/forms";
import { NoticeBox } from "~/components/notice";
import { useHydrated } from "~/lib/use-hydrated";
import { useAnchoredAction } from "./AdminPanel";
import { FormActions } from "./fields";
import { useFormErrorToast, useUploadSavedToast, useSubmitting } from "./form-state";

/**
 * An action's form errors (`[title, description]`): an inline box before hydration — the only
 * feedback without JavaScript — and an error toast once hydrated.
 */
export function FormErrors({ errors }: { errors: string[] | undefined }) {
  const hydrated = useHydrated();
  useFormErrorToast(errors);
  const [title, description] = errors ?? [];
  return hydrated || !title ? null : <NoticeBox notice={{ tone: "error", title, description }} />;
}

type AdminFormProps = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any>;
  action: string;
  closeTo: string;
  submitLabel: string;
  children: ReactNode;
};

export function AdminForm({ form, action, closeTo, submitLabel, children }: AdminFormProps) {
  useUploadSavedToast(action);
  const pending = useSubmitting(action);
  const formAction = useAnchoredAction(action);
  return (
    <ConformForm form={form} action={formAction} encType="multipart/form-data" preventScrollReset>
      <FormErrors errors={form.errors} />
      {children}
      <FormActions closeTo={closeTo} pending={pending} pendingText="Salvando...">
        {submitLabel}
      </FormActions>
    </ConformForm>
  );
}
