// A pronunciation level's form: the English sentence (what the learner reads and is scored against), its
// pt-BR translation, a recording that replaces the reference audio and, over a shipped recording, the
// way back to it. Works as a plain multipart form without JavaScript (AdminForm).
import { AdminForm } from "~/components/admin/AdminForm";
import { AudioField } from "~/components/admin/fields";
import { CheckboxField, Field, TextareaField, useSchemaForm } from "~/components/forms";
import type { AdminActionData } from "~/lib/admin-forms";
import type { LevelForEdit } from "./levels-admin.server";
import { LIMITS, levelSchema } from "./schemas";

export const SENTENCE_AUDIO_HINT =
  "A gravação não muda com a frase: ao mudar as palavras, envie uma gravação da nova frase. Letras sem acento, espaços e pontuação simples.";

export function LevelForm({
  level,
  actionData,
  action,
  closeTo,
}: {
  level: LevelForEdit;
  actionData?: AdminActionData;
  action: string;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(levelSchema, actionData?.result, {
    id: `editar-nivel-${level.level}`,
    shouldValidate: "onBlur",
    defaultValue: { sentence: level.sentence, translation: level.translation },
  });
  return (
    <AdminForm form={form} action={action} closeTo={closeTo} submitLabel="Salvar nível">
      <Field meta={fields.sentence} label="Frase em inglês" maxLength={LIMITS.sentence} hint={SENTENCE_AUDIO_HINT} />
      <TextareaField
        meta={fields.translation}
        label="Tradução"
        rows={2}
        maxLength={LIMITS.translation}
        hint={`Em português; até ${LIMITS.translation} caracteres.`}
      />
      <AudioField
        currentUrl={level.audioUrl}
        fileMeta={fields.audio_file}
        label={level.audioSource === "upload" ? "Áudio de referência (enviado)" : "Áudio de referência (original)"}
        emptyText="Sem gravação de referência."
      >
        {level.canRestoreAudio ? (
          <CheckboxField
            meta={fields.restore_audio}
            label="Voltar ao áudio original"
            hint="O áudio enviado é apagado e a gravação original volta a tocar (ela diz a frase original do nível)."
          />
        ) : null}
      </AudioField>
    </AdminForm>
  );
}
