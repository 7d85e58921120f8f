// Client side of the admin forms: the feedback of an action — a toast with JavaScript, an inline
// notice without it (rendered by the form) — and whether a form is being sent. The form state itself
// is useSchemaForm (~/components/forms).
import type { SubmissionResult } from "@conform-to/react";
import { useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { Notice } from "~/components/notice";
import { toast } from "~/components/Toaster";

/** What an admin action answers when it does not redirect. */
export type AdminActionData = { result: SubmissionResult<string[]> | null; notice: Notice | null };

/** Shows the action's notice as a toast (once per answer). */
export function useNoticeToast(notice: Notice | null | undefined) {
  useEffect(() => {
    if (notice) toast({ type: notice.tone === "error" ? "error" : notice.tone, title: notice.title, description: notice.description });
  }, [notice]);
}

/**
 * "Imagem enviada com sucesso" when a submission of `formId` that carried an image file is redirected
 * away (saved). The save itself is announced by the server's flash toast.
 */
export function useImageSavedToast(formAction: string) {
  const navigation = useNavigation();
  const announced = useRef<FormData | null>(null);
  useEffect(() => {
    const formData = navigation.formData;
    if (navigation.state !== "loading" || !formData || announced.current === formData) return;
    if ((navigation.formMethod ?? "").toUpperCase() !== "POST" || navigation.formAction !== formAction) return;
    if (navigation.location.pathname === formAction) return;
    const sentImage = [...formData.values()].some((value) => typeof value === "object" && value !== null && "size" in value && value.size > 0);
    announced.current = formData;
    if (sentImage) toast({ type: "success", title: "Imagem enviada com sucesso" });
  }, [navigation, formAction]);
}

export function useSubmitting(formAction: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formAction === formAction;
}
