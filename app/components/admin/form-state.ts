// Client side of the admin forms: the feedback of an action — its conform form errors ([title,
// description]) as a toast with JavaScript, inline without it (rendered by the form) — and whether a
// form is being sent. The form state itself is useSchemaForm (~/components/forms); the answer's shape
// and the refusal codes are ~/lib/admin-forms.
import { useEffect, useRef } from "react";
import { useNavigation } from "react-router";
import { toast } from "~/components/Toaster";

/** Shows an answer's form errors (`[title, description]`) as an error toast, once per answer. */
export function useFormErrorToast(errors: string[] | undefined) {
  useEffect(() => {
    const [title, description] = errors ?? [];
    if (title) toast({ type: "error", title, description });
  }, [errors]);
}

/** The toast of a saved submission that carried files: "Imagem enviada…", "Áudio enviado…" or both. */
function uploadedTitle(files: File[]): string | null {
  if (files.length === 0) return null;
  if (files.every((file) => file.type.startsWith("audio/"))) return "Áudio enviado com sucesso";
  if (files.every((file) => !file.type.startsWith("audio/"))) return "Imagem enviada com sucesso";
  return "Arquivos enviados com sucesso";
}

/**
 * "Imagem enviada com sucesso" (or "Áudio enviado…") when a submission of `formAction` that carried a
 * file is redirected away (saved). The save itself is announced by the server's flash toast.
 */
export function useUploadSavedToast(formAction: string) {
  const navigation = useNavigation();
  const announced = useRef<FormData | null>(null);
  useEffect(() => {
    const formData = navigation.formData;
    if (navigation.state !== "loading" || !formData || announced.current === formData) return;
    if ((navigation.formMethod ?? "").toUpperCase() !== "POST" || navigation.formAction !== formAction) return;
    if (navigation.location.pathname === formAction) return;
    const files = [...formData.values()].filter(
      (value): value is File => typeof value === "object" && value !== null && "size" in value && value.size > 0,
    );
    announced.current = formData;
    const title = uploadedTitle(files);
    if (title) toast({ type: "success", title });
  }, [navigation, formAction]);
}

export function useSubmitting(formAction: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formAction === formAction;
}
