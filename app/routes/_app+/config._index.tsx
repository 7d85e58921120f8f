// /config (tab Conta): credits, profile (name, e-mail with its change flow, WhatsApp), English level,
// statistics, sign out. Older links name a tab with `?tab=` (e.g. the credits dialog's `?tab=account#creditos`).
// Editing is addressed by URL (`?edit=name|email|whatsapp`) so it works without JavaScript.
import { data, redirect, Link, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { loadAccount, updateProfileField } from "~/features/account";
import { EDITABLE_FIELDS, nextRenewalDate, secondsToSaoPauloMidnight, type EditableField } from "~/features/account/account-rules";
import { emailChangeSchema, nameSchema, whatsappSchema } from "~/features/account/account-schemas";
import { CreditsPanel, panelClass, ProfilePanel, StatisticsPanel, type AccountActionData } from "~/features/account/ui/account-panels";
import { TAB_PATHS } from "~/features/account/ui/ConfigLayout";
import { publicOrigin } from "~/features/auth/accounts.server";
import {
  cancelEmailChange,
  checkEmailChange,
  requestEmailChange,
  resendEmailChange,
  type EmailChangeRefusal,
} from "~/features/auth/email-change.server";
import { levelLabel } from "~/features/chat/ui/EnglishLevel";
import { SignOutButton } from "~/features/shell/ui/ShellParts";
import type { RouteHandle } from "~/lib/access";
import { saoPauloDate } from "~/lib/dates";
import { requireUser } from "~/server/auth.server";
import { monthlyAllowance } from "~/server/credits.server";
import { minutesLeft } from "~/server/rate-limit.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/config._index";

export const handle: RouteHandle = { access: "user" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const params = new URL(request.url).searchParams;
  const tab = params.get("tab");
  if (tab && TAB_PATHS[tab] && TAB_PATHS[tab] !== "/config") throw redirect(TAB_PATHS[tab]);
  const page = Math.min(1000, Math.max(1, Number.parseInt(params.get("historico") ?? "1", 10) || 1));
  const edit = params.get("edit");
  const now = new Date();
  const account = await loadAccount(context, user.id, page, now);
  return {
    name: user.name,
    email: user.email,
    whatsapp: user.phoneNumber,
    newEmail: user.newEmail,
    editing: (EDITABLE_FIELDS as readonly string[]).includes(edit ?? "") ? (edit as EditableField) : null,
    credits: {
      balance: user.monthlyCredits,
      allowance: monthlyAllowance(context.cloudflare.env),
      nextRenewal: nextRenewalDate(now),
      secondsToMidnight: secondsToSaoPauloMidnight(now),
    },
    page,
    ...account,
    stats: {
      conversationsStarted: user.conversationsStarted,
      flashcardsPlayed: user.flashcardsPlayed,
      lessonsWatched: user.lessonsWatched,
      modulesCompleted: user.modulesCompleted,
      courseCompletion: user.courseCompletion,
    },
    englishLevel: user.englishLevel,
    // Written out by the server, like every date on this page (no Intl formatter while the page hydrates).
    englishLevelAtLabel: user.englishLevelAt ? saoPauloDate(user.englishLevelAt) : null,
  };
}

const accountSchema = (currentEmail: string) =>
  z.discriminatedUnion("intent", [
    nameSchema,
    whatsappSchema,
    emailChangeSchema(currentEmail),
    z.object({ intent: z.literal("resend_email") }),
    z.object({ intent: z.literal("cancel_email") }),
  ]);

const EMAIL_REFUSALS: Record<EmailChangeRefusal["status"], { status: number; formErrors: (refusal: EmailChangeRefusal) => string[] }> = {
  change_in_progress: {
    status: 409,
    formErrors: (r) => [
      "Alteração em andamento",
      `Confirme o link enviado para ${r.status === "change_in_progress" ? r.pendingEmail : "o novo email"} ou cancele a alteração antes de pedir outra.`,
    ],
  },
  rate_limited: {
    status: 429,
    formErrors: (r) => [
      "Limite de emails excedido",
      `Aguarde ${r.status === "rate_limited" ? minutesLeft(r.retryAfterMs) : 10} minutos antes de tentar novamente.`,
    ],
  },
  email_exists: { status: 409, formErrors: () => ["Email já cadastrado", "Este email já está em uso por outra conta."] },
  nothing_pending: { status: 409, formErrors: () => ["Erro ao reenviar", "Não há alteração de email pendente."] },
};

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, accountSchema(user.email));
  if (submission.status !== "success") {
    const intent = submission.payload.intent;
    return data<AccountActionData>(
      { result: submission.reply(), code: null, intent: typeof intent === "string" ? intent : undefined },
      { status: 400 },
    );
  }
  const input = submission.value;
  const refuse = (status: number, code: string, formErrors: string[]) =>
    data<AccountActionData>({ result: submission.reply({ formErrors }), code, intent: input.intent }, { status });
  const refuseEmail = (refusal: EmailChangeRefusal) => {
    const { status, formErrors } = EMAIL_REFUSALS[refusal.status];
    return refuse(status, refusal.status, formErrors(refusal));
  };
  const origin = publicOrigin(context, request);

  switch (input.intent) {
    case "name":
    case "whatsapp": {
      const label = input.intent === "name" ? "nome" : "WhatsApp";
      try {
        if (input.intent === "name") await updateProfileField(context, user.id, "name", input.name);
        else await updateProfileField(context, user.id, "phone", input.whatsapp);
      } catch (error) {
        console.error(error);
        return refuse(500, "update_failed", [`Erro ao atualizar ${label}. Tente novamente.`]);
      }
      return redirectWithToast(context.cloudflare.env, "/config", {
        type: "success",
        title: input.intent === "name" ? "Nome atualizado" : "WhatsApp atualizado",
      });
    }
    case "email": {
      try {
        if (!input.confirmed) {
          // The first step checks what can be checked without sending anything, then asks to confirm.
          const refusal = await checkEmailChange(context, user, input.email);
          if (refusal) return refuseEmail(refusal);
          return data<AccountActionData>({ result: submission.reply(), code: "confirm_email", intent: "email", email: input.email });
        }
        const outcome = await requestEmailChange(context, user, input.email, origin);
        if (outcome.status !== "sent") return refuseEmail(outcome);
        return redirectWithToast(context.cloudflare.env, "/config", {
          type: "success",
          title: "Link de confirmação enviado",
          description: `Abra o link enviado para ${outcome.email} para concluir a alteração.`,
        });
      } catch (error) {
        console.error(error);
        return refuse(500, "email_change_failed", ["Erro na alteração de email", "Tente novamente."]);
      }
    }
    case "resend_email": {
      const outcome = await resendEmailChange(context, user, origin);
      if (outcome.status !== "sent") return refuseEmail(outcome);
      return redirectWithToast(context.cloudflare.env, "/config", {
        type: "success",
        title: "Email reenviado",
        description: `Enviamos um novo link para ${outcome.email}.`,
      });
    }
    case "cancel_email":
      await cancelEmailChange(context, user.id);
      return redirectWithToast(context.cloudflare.env, "/config", { type: "info", title: "Alteração de email cancelada" });
  }
}

export default function Config() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as AccountActionData | undefined;
  const { englishLevel, englishLevelAtLabel } = loaderData;
  return (
    <div className="grid gap-6">
      <CreditsPanel {...loaderData.credits} ledger={loaderData.ledger} page={loaderData.page} hasMore={loaderData.hasMoreLedger} />
      <ProfilePanel
        name={loaderData.name}
        email={loaderData.email}
        whatsapp={loaderData.whatsapp}
        newEmail={loaderData.newEmail}
        emailChangePending={loaderData.emailChangePending}
        emailBlockedMs={loaderData.emailBlockedMs}
        editing={loaderData.editing}
        actionData={actionData}
      />
      <section aria-labelledby="nivel-ingles" className={panelClass}>
        <h2 id="nivel-ingles" className="font-semibold">
          Nível de inglês
        </h2>
        <p className="mt-1 text-slate-700 dark:text-slate-200" data-testid="account-english-level">
          {englishLevel
            ? `${levelLabel(englishLevel)}${englishLevelAtLabel ? ` (teste feito em ${englishLevelAtLabel})` : ""}`
            : "Você ainda não fez o teste de nível."}
        </p>
        <Link to="/english-level-test" className="mt-2 inline-block text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300">
          {englishLevel ? "Refazer o teste" : "Fazer o teste de nível"}
        </Link>
      </section>
      <StatisticsPanel stats={loaderData.stats} />
      <div>
        <SignOutButton className="border border-slate-300 px-4 dark:border-night-700" />
      </div>
    </div>
  );
}
