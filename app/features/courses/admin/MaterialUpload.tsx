// Upload of one lesson material: selection (works without JavaScript) or drag and drop (with it).
// The type is not enforced (spec §5); over 50 MB is refused here and, authoritatively, by the server.
import { useId, useRef, useState, type DragEvent } from "react";
import { Form, useNavigation } from "react-router";
import { FormErrors } from "~/components/admin/AdminForm";
import { useAnchoredAction } from "~/components/admin/AdminPanel";
import { SubmitButton } from "~/components/button";
import { UploadIcon } from "~/components/icons";
import { formErrorsOf, type AdminActionData } from "~/lib/admin-forms";
import { MATERIAL_MAX_BYTES } from "~/lib/media";
import { useHydrated } from "~/lib/use-hydrated";
import { formatFileSize, MATERIAL_HINT_TYPES } from "../material-files";
import { MESSAGES } from "./schemas";

export function MaterialUpload({ action, actionData }: { action: string; actionData?: AdminActionData }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const pending = navigation.state !== "idle" && navigation.formAction === action && navigation.formEncType === "multipart/form-data";

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setError(chosen && chosen.size > MATERIAL_MAX_BYTES ? MESSAGES.materialTooLarge : null);
  };
  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files?.[0];
    if (!dropped || !inputRef.current) return;
    // One file at a time: the input carries only the first dropped file.
    const transfer = new DataTransfer();
    transfer.items.add(dropped);
    inputRef.current.files = transfer.files;
    choose(dropped);
  };
  const errorId = `${id}-error`;
  const formAction = useAnchoredAction(action);

  return (
    <Form
      method="post"
      action={formAction}
      encType="multipart/form-data"
      preventScrollReset
      onSubmit={(event) => {
        if (!hydrated) return;
        const chosen = inputRef.current?.files?.[0] ?? null;
        if (!chosen) {
          event.preventDefault();
          setError("Selecione um arquivo para enviar");
        } else if (chosen.size > MATERIAL_MAX_BYTES) {
          event.preventDefault();
          setError(MESSAGES.materialTooLarge);
        }
      }}
    >
      <FormErrors errors={formErrorsOf(actionData?.result)} />
      <input type="hidden" name="intent" value="upload" />
      <label
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex cursor-pointer flex-col focus-within:ring-2 focus-within:ring-indigo-500 items-center justify-center gap-2 rounded-xl border-2 border-dashed p-6 text-center transition-colors ${
          dragging ? "border-indigo-500 bg-indigo-50 dark:bg-indigo-400/10" : "border-slate-300 hover:border-indigo-400 dark:border-night-700"
        }`}
      >
        <span className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-200">
          <UploadIcon size={20} />
        </span>
        <span className="font-semibold">{hydrated ? "Arraste um arquivo aqui ou clique para selecionar" : "Selecione um arquivo"}</span>
        <span className="text-sm text-slate-600 dark:text-slate-400">
          {MATERIAL_HINT_TYPES.map((t) => t.toUpperCase()).join(", ")} · até 50MB · um arquivo por vez
        </span>
        {file ? (
          <span className="mt-1 max-w-full truncate rounded-lg bg-slate-100 px-3 py-1 text-sm dark:bg-night-800">
            {file.name} ({formatFileSize(file.size)})
          </span>
        ) : null}
        <input
          ref={inputRef}
          id={id}
          type="file"
          name="file"
          aria-label="Arquivo do material"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => choose(event.currentTarget.files?.[0] ?? null)}
          className={
            hydrated
              ? "sr-only"
              : "mt-3 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-slate-200 file:px-3 file:py-2 file:font-semibold dark:file:bg-night-800 dark:file:text-white"
          }
        />
      </label>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="mt-4 flex justify-end">
        <SubmitButton size="lg" pending={pending} pendingText="Enviando...">
          Enviar material
        </SubmitButton>
      </div>
    </Form>
  );
}
