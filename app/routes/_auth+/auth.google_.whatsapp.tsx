// /auth/google/whatsapp: asked once, right after the first Google sign-in into an account without a
// WhatsApp number (decision 0017). Optional: "Pular" goes on without it. A plain form that works
// without JavaScript, with the account tab's WhatsApp rules. 404 while Google sign-in is unavailable.
import { data, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import { SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { WHATSAPP_MAX } from "~/features/account/account-rules";
import { whatsappSchema } from "~/features/account/account-schemas";
import { requireGoogleSignIn, saveMissingWhatsapp } from "~/features/auth/google.server";
import { AuthCard } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { requireUser, safeRedirect } from "~/server/auth.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/auth.google_.whatsapp";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Seu WhatsApp — Nika" }];

const redirectField = { redirectTo: z.string().max(2000).optional() };
/** Salvar (the account tab's WhatsApp field) or Pular. */
const googleWhatsappSchema = z.discriminatedUnion("intent", [
  whatsappSchema.extend(redirectField),
  z.object({ intent: z.literal("skip"), ...redirectField }),
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  await requireGoogleSignIn(context);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (user.phoneNumber) throw redirect(redirectTo);
  return { redirectTo, firstName: user.name.split(" ")[0] ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  await requireGoogleSignIn(context);
  const submission = await parseForm(request, googleWhatsappSchema);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const destination = safeRedirect(submission.value.redirectTo);
  if (submission.value.intent === "skip") return redirect(destination);
  // An account that has a number already (another tab saved it) keeps it: this page only fills a missing one.
  if (!(await saveMissingWhatsapp(context, user.id, submission.value.whatsapp))) return redirect(destination);
  return redirectWithToast(context.cloudflare.env, destination, { type: "success", title: "WhatsApp salvo" });
}

export default function GoogleWhatsapp() {
  const { redirectTo, firstName } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(googleWhatsappSchema, actionData?.result);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;

  return (
    <AuthCard
      title={firstName ? `Boas-vindas, ${firstName}!` : "Boas-vindas!"}
      subtitle="Quer receber novidades e lembretes da Nika pelo WhatsApp? Informe seu número. É opcional."
    >
      <ConformForm form={form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          meta={fields.whatsapp}
          label="WhatsApp"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="+55 11 99999-9999"
          maxLength={WHATSAPP_MAX}
        />
        <div className="flex flex-col gap-3 sm:flex-row-reverse">
          <SubmitButton
            name="intent"
            value="whatsapp"
            size="lg"
            className="w-full"
            pending={submitting === "whatsapp"}
            pendingText="Salvando..."
          >
            Salvar
          </SubmitButton>
          <SubmitButton
            name="intent"
            value="skip"
            formNoValidate
            variant="secondary"
            size="lg"
            className="w-full"
            pending={submitting === "skip"}
            pendingText="Continuando..."
          >
            Pular
          </SubmitButton>
        </div>
      </ConformForm>
    </AuthCard>
  );
}
