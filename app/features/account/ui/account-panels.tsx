// The Conta tab's panels: credits (balance, allowance, renewal, history), the profile fields (name,
// WhatsApp, e-mail with its change flow) and the statistics. Every control is a link or a plain form,
// so the tab works without JavaScript; with it, save buttons stay disabled while the value is blank,
// the confirmation is a dialog and the countdowns tick each minute.
import type { SubmissionResult } from "@conform-to/react";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { Form, Link, useRevalidator } from "react-router";
import { buttonVariants, SubmitButton } from "~/components/button";
import { BUY_CREDITS_PATH } from "~/components/credits";
import { ConformForm, FieldError, inputClass, labelClass, useServerForm } from "~/components/form-fields";
import { NoticeBox } from "~/components/notice";
import { useHydrated } from "~/lib/use-hydrated";
import {
  derivedStatistics,
  formatCountdown,
  formatRenewalDate,
  ledgerLabel,
  NAME_MAX,
  EMAIL_MAX,
  type EditableField,
  type Statistics,
} from "../account-rules";
import type { LedgerEntry } from "../account.server";
import { EmailConfirmForm } from "./email-confirm-form";

const EmailConfirmDialog = lazy(() => import("./email-confirm-dialog").then((m) => ({ default: m.EmailConfirmDialog })));

export const panelClass = "rounded-2xl border border-slate-200 p-4 text-left sm:p-5 dark:border-night-700";
const linkClass = "text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300";

/** Milliseconds left of a server-given duration, ticking every minute with JavaScript (and revalidating at 0). */
export function useMinuteCountdown(ms: number) {
  const [left, setLeft] = useState(ms);
  const revalidator = useRevalidator();
  useEffect(() => {
    setLeft(ms);
    if (ms <= 0) return;
    const deadline = Date.now() + ms;
    const timer = setInterval(() => {
      const rest = Math.max(0, deadline - Date.now());
      setLeft(rest);
      if (rest === 0) {
        clearInterval(timer);
        revalidator.revalidate();
      }
    }, 60_000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the revalidator changes identity on every render
  }, [ms]);
  return left;
}

/**
 * Save buttons wait for a non-blank value — once the page's script runs: without JavaScript nothing
 * could enable them again, so they stay enabled and the server refuses a blank value.
 */
function useBlank(value: string) {
  return useHydrated() && value.trim() === "";
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

// ——— credits ———

export function CreditsPanel({
  balance,
  allowance,
  nextRenewal,
  secondsToMidnight,
  ledger,
  page,
  hasMore,
}: {
  balance: number;
  allowance: number;
  nextRenewal: string;
  secondsToMidnight: number;
  ledger: LedgerEntry[];
  page: number;
  hasMore: boolean;
}) {
  const left = useMinuteCountdown(secondsToMidnight * 1000);
  return (
    <section id="creditos" aria-labelledby="creditos-titulo" className={panelClass}>
      <h2 id="creditos-titulo" className="font-semibold">
        Créditos
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-300">Saldo</dt>
          <dd className="text-2xl font-bold" data-testid="account-credits">
            {balance} {balance === 1 ? "crédito" : "créditos"}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-300">Créditos por mês</dt>
          <dd className="text-lg font-semibold">{allowance}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-300">Próxima renovação</dt>
          <dd className="text-lg font-semibold">
            <time dateTime={nextRenewal}>{formatRenewalDate(nextRenewal)}</time>
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        Os créditos renovam no dia 1º de cada mês (horário de São Paulo). Hoje termina em{" "}
        <span data-testid="account-midnight-countdown">{formatCountdown(left / 1000)}</span>.
      </p>
      <Link to={BUY_CREDITS_PATH} reloadDocument={false} className={buttonVariants({ size: "sm", className: "mt-3" })}>
        Comprar mais créditos
      </Link>

      <h3 className="mt-5 text-sm font-semibold">Histórico de créditos</h3>
      {ledger.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">Nenhuma movimentação ainda.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 text-sm dark:divide-night-700" data-testid="credit-history">
          {ledger.map((entry) => (
            <li key={entry.id} className="flex items-center justify-between gap-3 py-2">
              <div className="min-w-0">
                <p className="font-medium">{ledgerLabel(entry.reason, entry.delta)}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  <time dateTime={entry.createdAt}>{entry.createdAtLabel}</time> · saldo {entry.balanceAfter}
                  {entry.amountLabel === null ? null : ` · ${entry.amountLabel}`}
                </p>
              </div>
              <span
                className={
                  entry.delta >= 0 ? "font-semibold text-emerald-700 dark:text-emerald-300" : "font-semibold text-slate-800 dark:text-slate-200"
                }
              >
                {entry.delta >= 0 ? `+${entry.delta}` : `−${Math.abs(entry.delta)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {page > 1 || hasMore ? (
        <nav aria-label="Páginas do histórico" className="mt-2 flex gap-4">
          {page > 1 ? (
            <Link className={linkClass} to={page === 2 ? "/config#creditos" : `/config?historico=${page - 1}#creditos`} preventScrollReset>
              Mais recentes
            </Link>
          ) : null}
          {hasMore ? (
            <Link className={linkClass} to={`/config?historico=${page + 1}#creditos`} preventScrollReset>
              Mais antigas
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

// ——— profile fields ———

export type AccountActionData = {
  result: SubmissionResult<string[]>;
  code: string | null;
  intent?: string;
  /** The address waiting for confirmation (code "confirm_email"). */
  email?: string;
};

function FieldRow({
  label,
  value,
  field,
  editing,
  canEdit = true,
  children,
}: {
  label: string;
  value: ReactNode;
  field: EditableField;
  editing: boolean;
  canEdit?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="py-3" data-testid={`account-${field}`}>
      {editing ? (
        children
      ) : (
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="text-sm text-slate-600 dark:text-slate-300">{label}</p>
            <div className="font-medium break-words">{value}</div>
          </div>
          {canEdit ? (
            <Link to={`/config?edit=${field}`} className={linkClass} aria-label={`Editar ${label.toLowerCase()}`} preventScrollReset>
              Editar
            </Link>
          ) : null}
        </div>
      )}
    </div>
  );
}

/**
 * What getZodConstraint gives for nameSchema, whatsappSchema and emailChangeSchema (account-schemas.ts), written out
 * so /config loads no zod (a unit test holds them equal). The profile forms are checked by the server only: Salvar
 * waits for a non-blank value and each input has its maxLength, and the server's reply shows any other refusal
 * ('WhatsApp inválido', 'Este já é o seu email atual'), with or without JavaScript.
 */
export const PROFILE_CONSTRAINTS = {
  name: { intent: { required: true }, name: { required: true } },
  whatsapp: { intent: { required: true }, whatsapp: { required: true } },
  email: { intent: { required: true }, email: { required: true }, confirmed: { required: false } },
};

/** The name or the WhatsApp number: one input, Salvar (disabled while blank with JS) and Cancelar. */
function TextFieldForm({
  intent,
  label,
  defaultValue,
  lastResult,
  type,
  maxLength,
  autoComplete,
}: {
  intent: "name" | "whatsapp";
  label: string;
  defaultValue: string;
  lastResult?: SubmissionResult<string[]> | null;
  type: "text" | "tel";
  maxLength: number;
  autoComplete: string;
}) {
  const [form, fields] = useServerForm<Record<"intent" | typeof intent, string>>(lastResult, {
    id: `account-${intent}`,
    defaultValue: { intent, [intent]: defaultValue },
    constraint: PROFILE_CONSTRAINTS[intent],
  });
  const field = intent === "name" ? fields.name : fields.whatsapp;
  const [value, setValue] = useState(String(lastResult?.initialValue?.[intent] ?? defaultValue));
  const blank = useBlank(value);
  const error = field.errors?.[0];
  const [title, description] = form.errors ?? [];
  return (
    <ConformForm form={form} preventScrollReset>
      <NoticeBox notice={title ? { tone: "error", title, description } : null} />
      <input type="hidden" name="intent" value={intent} />
      <label htmlFor={field.id} className={labelClass}>
        {label}
      </label>
      <input
        id={field.id}
        name={field.name}
        type={type}
        inputMode={type === "tel" ? "tel" : undefined}
        autoComplete={autoComplete}
        maxLength={maxLength}
        defaultValue={value}
        onChange={(event) => setValue(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${field.id}-error` : undefined}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the learner just asked to edit this field
        autoFocus
        className={inputClass}
      />
      <FieldError id={field.id} error={error} />
      <div className="mt-3 flex gap-2">
        <SubmitButton size="sm" pendingText="Salvando..." disabled={blank}>
          Salvar
        </SubmitButton>
        <Link to="/config" className={buttonVariants({ variant: "secondary", size: "sm" })} preventScrollReset>
          Cancelar
        </Link>
      </div>
    </ConformForm>
  );
}

export function ProfilePanel({
  name,
  email,
  whatsapp,
  newEmail,
  emailChangePending,
  emailBlockedMs,
  editing,
  actionData,
}: {
  name: string;
  email: string;
  whatsapp: string | null;
  newEmail: string | null;
  emailChangePending: boolean;
  emailBlockedMs: number;
  editing: EditableField | null;
  actionData?: AccountActionData | null;
}) {
  const replyFor = (intent: string) => (actionData?.intent === intent ? actionData.result : null);
  const blockedLeft = useMinuteCountdown(emailBlockedMs);
  const blocked = blockedLeft > 0;
  const emailReply = actionData?.intent === "email" || actionData?.intent === "resend_email" || actionData?.intent === "cancel_email";
  const editingEmail = !blocked && (editing === "email" || (actionData?.intent === "email" && actionData.code !== "confirm_email"));
  return (
    <section aria-labelledby="perfil-titulo" className={panelClass}>
      <h2 id="perfil-titulo" className="font-semibold">
        Perfil
      </h2>
      <div className="divide-y divide-slate-200 dark:divide-night-700">
        <FieldRow label="Nome" field="name" value={name} editing={editing === "name" || actionData?.intent === "name"}>
          <TextFieldForm
            intent="name"
            label="Nome"
            defaultValue={name}
            lastResult={replyFor("name")}
            type="text"
            maxLength={NAME_MAX}
            autoComplete="name"
          />
        </FieldRow>
        <FieldRow
          label="Email"
          field="email"
          editing={editingEmail}
          canEdit={!blocked}
          value={
            <>
              <span>{email}</span>
              {newEmail ? (
                <span className="mt-1 flex flex-wrap items-center gap-2 text-sm" data-testid="account-pending-email">
                  <span>{newEmail}</span>
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-400/20 dark:text-amber-100">
                    {emailChangePending ? "Pendente" : "Link expirado"}
                  </span>
                </span>
              ) : null}
            </>
          }
        >
          <EmailForm currentEmail={email} lastResult={replyFor("email")} />
        </FieldRow>
        {blocked ? (
          <NoticeBox
            className="mt-3"
            notice={{
              tone: "error",
              title: "Limite de emails excedido",
              description: `A alteração de email está bloqueada por ${minutes(blockedLeft)} ${minutes(blockedLeft) === 1 ? "minuto" : "minutos"}.`,
            }}
          />
        ) : null}
        {emailReply && actionData?.code && actionData.code !== "confirm_email" && actionData.intent !== "email" ? (
          <NoticeBox
            className="mt-3"
            notice={{
              tone: "error",
              title: actionData.result.error?.[""]?.[0] ?? "Erro na alteração de email",
              description: actionData.result.error?.[""]?.[1],
            }}
          />
        ) : null}
        {newEmail && !editingEmail ? <PendingEmail newEmail={newEmail} pending={emailChangePending} blocked={blocked} /> : null}
        {actionData?.code === "confirm_email" && actionData.email ? <ConfirmEmailChange email={actionData.email} /> : null}
        <FieldRow
          label="WhatsApp"
          field="whatsapp"
          value={whatsapp || "Não informado"}
          editing={editing === "whatsapp" || actionData?.intent === "whatsapp"}
        >
          <TextFieldForm
            intent="whatsapp"
            label="WhatsApp"
            defaultValue={whatsapp ?? ""}
            lastResult={replyFor("whatsapp")}
            type="tel"
            maxLength={30}
            autoComplete="tel"
          />
        </FieldRow>
      </div>
    </section>
  );
}

function EmailForm({ currentEmail, lastResult }: { currentEmail: string; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useServerForm<{ intent: string; email: string; confirmed: string }>(lastResult, {
    id: "account-email",
    defaultValue: { intent: "email" },
    constraint: PROFILE_CONSTRAINTS.email,
  });
  const [value, setValue] = useState(String(lastResult?.initialValue?.email ?? ""));
  const blank = useBlank(value);
  const error = fields.email.errors?.[0];
  const [title, description] = form.errors ?? [];
  return (
    <ConformForm form={form} preventScrollReset>
      <NoticeBox notice={title ? { tone: "error", title, description } : null} />
      <input type="hidden" name="intent" value="email" />
      <label htmlFor={fields.email.id} className={labelClass}>
        Novo email
      </label>
      <input
        id={fields.email.id}
        name={fields.email.name}
        type="email"
        inputMode="email"
        autoComplete="email"
        maxLength={EMAIL_MAX}
        defaultValue={value}
        onChange={(event) => setValue(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? `${fields.email.id}-error` : null, "email-change-hint"].filter(Boolean).join(" ")}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the learner just asked to edit this field
        autoFocus
        className={inputClass}
      />
      <FieldError id={fields.email.id} error={error} />
      <p id="email-change-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Atual: {currentEmail}. Enviaremos um link de confirmação para o novo endereço.
      </p>
      <div className="mt-3 flex gap-2">
        <SubmitButton size="sm" pendingText="Verificando..." disabled={blank}>
          Alterar email
        </SubmitButton>
        <Link to="/config" className={buttonVariants({ variant: "secondary", size: "sm" })} preventScrollReset>
          Cancelar
        </Link>
      </div>
    </ConformForm>
  );
}

/** The confirmation step: a dialog with JavaScript, a section of the page without. */
function ConfirmEmailChange({ email }: { email: string }) {
  const hydrated = useHydrated();
  if (hydrated) {
    return (
      <Suspense fallback={null}>
        <EmailConfirmDialog email={email} />
      </Suspense>
    );
  }
  return (
    <div className="py-3" role="region" aria-labelledby="confirmar-email-titulo">
      <h3 id="confirmar-email-titulo" className="font-semibold">
        Confirmar alteração de email
      </h3>
      <EmailConfirmForm email={email} />
    </div>
  );
}

function PendingEmail({ newEmail, pending, blocked }: { newEmail: string; pending: boolean; blocked: boolean }) {
  return (
    <div className="py-3 text-sm">
      <p className="text-slate-700 dark:text-slate-200">
        {pending
          ? `Enviamos um link de confirmação para ${newEmail}. Abra-o para concluir a alteração.`
          : `O link de confirmação enviado para ${newEmail} expirou.`}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {!blocked ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="resend_email" />
            <SubmitButton size="sm" variant="secondary" pendingText="Reenviando...">
              Reenviar link
            </SubmitButton>
          </Form>
        ) : null}
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="cancel_email" />
          <SubmitButton size="sm" variant="ghost" pendingText="Cancelando...">
            Cancelar alteração
          </SubmitButton>
        </Form>
      </div>
    </div>
  );
}

// ——— statistics ———

export function StatisticsPanel({ stats }: { stats: Statistics }) {
  const { engagement, totalActivities, hasCompletedOnboarding } = derivedStatistics(stats);
  const items: [string, string][] = [
    ["Conversas iniciadas", String(stats.conversationsStarted)],
    ["Jogos de flashcards", String(stats.flashcardsPlayed)],
    ["Aulas assistidas", String(stats.lessonsWatched)],
    ["Módulos concluídos", String(stats.modulesCompleted)],
    ["Conclusão do curso", `${stats.courseCompletion}%`],
    ["Atividades", String(totalActivities)],
  ];
  return (
    <section aria-labelledby="estatisticas-titulo" className={panelClass}>
      <h2 id="estatisticas-titulo" className="font-semibold">
        Suas estatísticas
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="account-statistics">
        {items.map(([label, value]) => (
          <div key={label} className="rounded-xl bg-slate-50 p-3 dark:bg-night-800">
            <dt className="text-xs text-slate-600 dark:text-slate-300">{label}</dt>
            <dd className="text-xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4">
        <p className="flex justify-between text-sm">
          <span id="engajamento">Engajamento</span>
          <span className="font-semibold">{engagement}%</span>
        </p>
        <div
          role="progressbar"
          aria-labelledby="engajamento"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={engagement}
          className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-night-700"
        >
          <div className="h-full rounded-full bg-indigo-600" style={{ width: `${engagement}%` }} />
        </div>
        {!hasCompletedOnboarding ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">Converse com a Nika ou jogue flashcards para começar a pontuar.</p>
        ) : null}
      </div>
    </section>
  );
}
