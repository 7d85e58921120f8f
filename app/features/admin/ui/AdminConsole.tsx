// The admin console's first screen, shared by /admin and /config/admin: the app_config toggles (each its
// own form: a submit switch that works without JS; with JS an optimistic fetcher that rolls back and
// says 'Falha ao atualizar configuração. Tente novamente.' when the server refuses) and the analytics.
import { useEffect, type ReactNode } from "react";
import { isRouteErrorResponse, useActionData, useFetcher, type ClientActionFunctionArgs } from "react-router";
import { SubmitButton } from "~/components/button";
import { cn } from "~/components/cn";
import { NoticeBox } from "~/components/notice";
import { toast } from "~/components/Toaster";
import type { Analytics, ConfigRow, ConsoleData } from "../console.server";
import { ANALYTICS_ERROR, CONFIG_MESSAGES } from "../messages";
import type { ConfigActionData } from "../schemas";
import { inputClass } from "../styles";
import { HabitPanel } from "./HabitPanel";

/**
 * The console routes' clientAction: with JS, a toggle that never reached the server (the connection
 * dropped) is answered like a refusal, so the switch rolls back with the same toast instead of the
 * page's error screen. A thrown Response (403, a redirect) is passed on.
 */
export async function configClientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<ConfigActionData>();
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error;
    return {
      result: { status: "error", error: { "": [CONFIG_MESSAGES.failed] } },
      code: "network_failed",
      key: null,
    } satisfies ConfigActionData;
  }
}

const CONFIG_LABELS: Record<string, string> = {
  app_name: "Nome do app",
  email_confirmation_required: "Confirmação de e-mail obrigatória",
  enable_account_creation_on_signin: "Criar conta ao entrar com Google",
  feature_chat_english: "Chat em inglês",
  feature_chat_english_test: "Teste de nível de inglês",
  feature_chat_game: "Chat: jogo",
  feature_chat_live: "Chat: conversa ao vivo",
  feature_chat_portuguese: "Chat em português",
  feature_chat_roleplay: "Chat: roleplay",
  feature_flashcards: "Flashcards",
  feature_pronunciation: "Jogo de pronúncia",
  feature_teacher_flix: "Teacher FLIX",
  signup_enabled: "Cadastro aberto",
};

/** `panels`: what other features add to the analytics (their routes compose them, e.g. Meu caderno's). */
export function AdminConsole({ data, action, panels }: { data: ConsoleData; action: string; panels?: (analytics: Analytics) => ReactNode }) {
  const actionData = useActionData<ConfigActionData>();
  const [title, description] = actionData?.result.error?.[""] ?? [];
  return (
    <div className="space-y-10">
      <section aria-labelledby="admin-config-title">
        <h2 id="admin-config-title" className="text-xl font-bold">
          Funcionalidades e sistema
        </h2>
        {/* Without JavaScript the refusal comes back as the page's action data. */}
        <NoticeBox className="mt-3" notice={title ? { tone: "error", title, description } : null} />
        <ul className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-night-700 dark:border-night-700">
          {data.config.map((row) => (
            <li key={row.key} className="p-4">
              {row.isText ? <TextConfig row={row} action={action} /> : <SwitchConfig row={row} action={action} />}
            </li>
          ))}
        </ul>
      </section>
      <AnalyticsPanel analytics={data.analytics} panels={panels} />
    </div>
  );
}

/** The rollback toast: an answer of this fetcher that is a refusal. */
function useRefusalToast(fetcherData: ConfigActionData | undefined) {
  useEffect(() => {
    if (fetcherData && fetcherData.code) toast({ type: "error", title: CONFIG_MESSAGES.failed });
  }, [fetcherData]);
}

function SwitchConfig({ row, action }: { row: ConfigRow; action: string }) {
  const fetcher = useFetcher<ConfigActionData>();
  useRefusalToast(fetcher.data);
  const pending = fetcher.formData?.get("value");
  // Optimistic while the request runs; afterwards the loader's value (unchanged after a refusal: rolled back).
  const on = typeof pending === "string" ? pending === "true" : row.value;
  const labelId = `config-${row.key}-label`;
  return (
    <fetcher.Form method="post" action={action} className="flex items-start justify-between gap-4" preventScrollReset>
      <div className="min-w-0">
        <p id={labelId} className="font-semibold">
          {CONFIG_LABELS[row.key] ?? row.key}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">{row.description}</p>
        <p className="mt-1 font-mono text-xs text-slate-600 dark:text-slate-400">{row.key}</p>
      </div>
      <input type="hidden" name="key" value={row.key} />
      <button
        type="submit"
        name="value"
        value={on ? "false" : "true"}
        role="switch"
        aria-checked={on}
        aria-labelledby={labelId}
        data-config-key={row.key}
        className={cn(
          "relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
          on ? "bg-indigo-600" : "bg-slate-400",
        )}
      >
        <span className="sr-only">{on ? "Ativado" : "Desativado"}</span>
        <span
          aria-hidden
          className={cn("inline-block h-6 w-6 rounded-full bg-white shadow transition-transform", on ? "translate-x-5" : "translate-x-0")}
        />
      </button>
    </fetcher.Form>
  );
}

function TextConfig({ row, action }: { row: ConfigRow; action: string }) {
  const fetcher = useFetcher<ConfigActionData>();
  useRefusalToast(fetcher.data);
  const id = `config-${row.key}`;
  return (
    <fetcher.Form method="post" action={action} preventScrollReset>
      <label htmlFor={id} className="font-semibold">
        {CONFIG_LABELS[row.key] ?? row.key}
      </label>
      <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
        {row.description}
      </p>
      <input type="hidden" name="key" value={row.key} />
      <div className="mt-2 flex flex-wrap gap-2">
        <input
          id={id}
          name="text"
          defaultValue={row.text ?? ""}
          maxLength={60}
          aria-describedby={`${id}-hint`}
          className={cn(inputClass, "max-w-xs")}
        />
        <SubmitButton pending={fetcher.state !== "idle"} pendingText="Salvando...">
          Salvar
        </SubmitButton>
      </div>
    </fetcher.Form>
  );
}

const number = (n: number) => n.toLocaleString("pt-BR");

const FEATURE_LABELS: Record<string, string> = {
  chat_message: "Chat com a Nika",
  flashcard_game: "Flashcards",
  flashcards: "Flashcards",
  pronunciation: "Pronúncia",
  pronunciation_attempt: "Pronúncia",
};

export function AnalyticsPanel({ analytics, panels }: { analytics: Analytics | null; panels?: (analytics: Analytics) => ReactNode }) {
  return (
    <section aria-labelledby="admin-analytics-title">
      <h2 id="admin-analytics-title" className="text-xl font-bold">
        Análises
      </h2>
      {!analytics ? (
        <NoticeBox className="mt-3" notice={{ tone: "error", title: ANALYTICS_ERROR }} />
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Stat label="Usuários" value={analytics.totalUsers} />
            <Stat label="Ativos em 30 dias" value={analytics.activeUsers30Days} />
            <Stat label="Ativos em 7 dias" value={analytics.activeUsers7Days} />
            <Stat label="Perfis atualizados em 30 dias" value={analytics.profileUpdates30Days} />
            <Stat label="Perfis atualizados em 7 dias" value={analytics.profileUpdates7Days} />
            <Stat label="Mensagens para a Nika (30 dias)" value={analytics.messagesToNika30Days} />
            <Stat label="Jogos de flashcards (30 dias)" value={analytics.flashcardGames30Days} />
            <Stat label="Tentativas de pronúncia (30 dias)" value={analytics.pronunciationAttempts30Days} />
            <Stat label="Aulas concluídas (30 dias)" value={analytics.lessonsCompleted30Days} />
          </dl>
          <div className="mt-6 grid gap-6 sm:grid-cols-2">
            <div>
              <h3 className="font-semibold">Créditos gastos por recurso (30 dias)</h3>
              {analytics.creditsSpent30Days.length === 0 ? (
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Nenhum crédito gasto.</p>
              ) : (
                <table className="mt-2 w-full text-sm">
                  <thead>
                    <tr className="text-left text-slate-600 dark:text-slate-400">
                      <th scope="col" className="py-1 font-medium">
                        Recurso
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Créditos
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {analytics.creditsSpent30Days.map((row) => (
                      <tr key={row.feature} className="border-t border-slate-200 dark:border-night-700">
                        <td className="py-1">{FEATURE_LABELS[row.feature] ?? row.feature}</td>
                        <td className="py-1 text-right tabular-nums">{number(row.credits)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Devolvidos por falha: {number(analytics.refunds30Days)}</p>
            </div>
            <div>
              <h3 className="font-semibold">Novos cadastros por dia (30 dias)</h3>
              <Sparkline points={analytics.signupsPerDay} />
            </div>
          </div>
          <HabitPanel habit={analytics.habit} />
          {panels?.(analytics)}
        </>
      )}
    </section>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-slate-200 p-3 dark:border-night-700">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">{number(value)}</dd>
    </div>
  );
}

/** A server-rendered SVG line of the daily sign-ups, with its figures as text for screen readers. */
export function Sparkline({ points }: { points: { day: string; count: number }[] }) {
  const width = 300;
  const height = 60;
  const max = Math.max(1, ...points.map((p) => p.count));
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  const coords = points.map((p, i) => `${(i * step).toFixed(1)},${(height - 4 - (p.count / max) * (height - 8)).toFixed(1)}`).join(" ");
  const total = points.reduce((sum, p) => sum + p.count, 0);
  const last = points[points.length - 1];
  const summary = `${number(total)} cadastros em ${points.length} dias; máximo ${number(max === 1 && total === 0 ? 0 : max)} por dia${last ? `; hoje ${number(last.count)}` : ""}.`;
  return (
    <figure className="mt-2">
      <svg viewBox={`0 0 ${width} ${height}`} className="h-16 w-full text-indigo-600 dark:text-indigo-300" role="img" aria-label={summary}>
        <polyline points={coords} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" />
      </svg>
      <figcaption className="mt-1 text-sm text-slate-600 dark:text-slate-400">{summary}</figcaption>
    </figure>
  );
}
