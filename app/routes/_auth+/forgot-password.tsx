import { data, useActionData } from "react-router";
import { SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { NoticeBox } from "~/components/notice";
import { publicOrigin, requestPasswordReset } from "~/features/auth/accounts.server";
import { emailOnlySchema } from "~/features/auth/schemas";
import { AuthCard, BackToSignIn } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { parseForm } from "~/server/request.server";
import type { Route } from "./+types/forgot-password";

export const handle: RouteHandle = { access: "public" };

export const meta: Route.MetaFunction = () => [{ title: "Esqueci minha senha — Nika" }];

const SAME_ANSWER =
  "Se o email estiver cadastrado, você receberá em instantes um link para redefinir sua senha. Verifique também a caixa de spam.";

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, emailOnlySchema);
  if (submission.status !== "success") return data({ result: submission.reply(), sent: false }, { status: 400 });
  try {
    await requestPasswordReset(context, submission.value.email, publicOrigin(context, request));
  } catch (error) {
    // Same answer on failure: the page must not reveal whether the address exists.
    console.error("[forgot-password]", error);
  }
  return { result: submission.reply({ resetForm: true }), sent: true };
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(emailOnlySchema, actionData?.result);
  return (
    <AuthCard title="Esqueceu a senha?" subtitle="Informe seu email e enviaremos um link para criar uma nova senha.">
      {actionData?.sent ? <NoticeBox notice={{ tone: "success", title: "Verifique seu email", description: SAME_ANSWER }} /> : null}
      <ConformForm form={form}>
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" inputMode="email" placeholder="seu@email.com" />
        <SubmitButton size="lg" className="w-full" pendingText="Enviando...">
          Enviar link de redefinição
        </SubmitButton>
      </ConformForm>
      <BackToSignIn />
    </AuthCard>
  );
}
