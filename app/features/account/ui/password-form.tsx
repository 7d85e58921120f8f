// The Senha tab's form: current password, new password and its confirmation (conform + zod, the same
// rules as the server). Without JavaScript the server's reply fills the errors; a refusal of the
// server (wrong current password, too many attempts, unexpected) shows as a notice above the fields.
import { SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { NoticeBox } from "~/components/notice";
import { passwordChangeSchema, type PasswordChangeActionData } from "../password-schema";

export function PasswordChangeForm({ actionData }: { actionData: PasswordChangeActionData | undefined }) {
  const [form, fields] = useSchemaForm(passwordChangeSchema, actionData?.result, { id: "password-change" });
  const [title, description] = form.errors ?? [];
  return (
    <section aria-labelledby="senha-titulo" className="max-w-md">
      <h2 id="senha-titulo" className="text-lg font-semibold">
        Alterar senha
      </h2>
      <p className="mt-1 mb-4 text-sm text-slate-700 dark:text-slate-300">
        A nova senha deve ter pelo menos 8 caracteres, com letras e números. As outras sessões da sua conta serão encerradas.
      </p>
      <NoticeBox notice={title ? { tone: "error", title, description } : null} />
      <ConformForm form={form}>
        <Field meta={fields.currentPassword} label="Senha atual" type="password" autoComplete="current-password" />
        <Field meta={fields.newPassword} label="Nova senha" type="password" autoComplete="new-password" minLength={8} />
        <Field meta={fields.confirmPassword} label="Confirmar nova senha" type="password" autoComplete="new-password" minLength={8} />
        <SubmitButton pendingText="Alterando...">Alterar senha</SubmitButton>
      </ConformForm>
    </section>
  );
}
