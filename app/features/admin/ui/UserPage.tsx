// /admin/users/:userId — profile, statistics, credits and ledger, the actions (each a plain POST form:
// works without JavaScript) and the audit log of what admins did to this user.
import type { ReactNode } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { FormErrors } from "~/components/admin/AdminForm";
import { SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { saoPauloDateTime } from "~/lib/dates";
import { ACTION_LABELS, userActionSchema, type UserActionData, type UserIntent } from "../schemas";
import type { UserDetail } from "../users.server";
import { Badge } from "./UserSearch";

const dateTime = (iso: string | null) => (iso ? saoPauloDateTime(iso) : "—");

const describe = (value: unknown) => (value === null || value === undefined ? "—" : JSON.stringify(value));

export function UserPage({ data }: { data: UserDetail & { self: boolean } }) {
  const { user, ledger, audit, self } = data;
  const actionData = useActionData<UserActionData>();
  const lastIntent = actionData?.result.initialValue?.intent as UserIntent | undefined;
  return (
    <div className="space-y-8">
      <section aria-labelledby="admin-user-title">
        <h2 id="admin-user-title" className="flex flex-wrap items-center gap-2 text-xl font-bold">
          {user.name || "Usuário"}
          {user.isAdmin ? <Badge tone="indigo">Admin</Badge> : null}
          {user.accountType === "blocked" ? <Badge tone="red">Bloqueado</Badge> : null}
          {user.emailConfirmedAt ? null : <Badge tone="amber">E-mail não confirmado</Badge>}
        </h2>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <Item label="E-mail">{user.email}</Item>
          {user.newEmail ? <Item label="Novo e-mail (pendente)">{user.newEmail}</Item> : null}
          <Item label="WhatsApp">{user.phoneNumber || "—"}</Item>
          <Item label="Nível de inglês">{user.englishLevel ?? "—"}</Item>
          <Item label="Cadastro">{dateTime(user.createdAt)}</Item>
          <Item label="Visto por último">{dateTime(user.lastSeenAt)}</Item>
          <Item label="Sessões ativas">{user.activeSessions}</Item>
        </dl>
      </section>

      <section aria-labelledby="admin-user-stats">
        <h2 id="admin-user-stats" className="text-lg font-bold">
          Estatísticas
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
          <Item label="Conversas">{user.conversationsStarted}</Item>
          <Item label="Jogos de flashcards">{user.flashcardsPlayed}</Item>
          <Item label="Aulas assistidas">{user.lessonsWatched}</Item>
          <Item label="Módulos concluídos">{user.modulesCompleted}</Item>
          <Item label="Conclusão do curso">{user.courseCompletion}%</Item>
          <Item label="Engajamento">{user.engagement}%</Item>
        </dl>
      </section>

      <section aria-labelledby="admin-user-actions" className="space-y-4">
        <h2 id="admin-user-actions" className="text-lg font-bold">
          Ações
        </h2>
        <FormErrors errors={lastIntent === "credits" ? undefined : (actionData?.result.error?.[""] ?? undefined)} />
        <div className="flex flex-wrap gap-2">
          {self ? null : user.accountType === "blocked" ? (
            <IntentButton intent="unblock" label="Desbloquear" />
          ) : (
            <IntentButton intent="block" label="Bloquear" danger />
          )}
          {user.isAdmin ? (
            <IntentButton intent="remove_admin" label="Remover administrador" />
          ) : (
            <IntentButton intent="make_admin" label="Tornar administrador" />
          )}
          {user.emailConfirmedAt ? null : <IntentButton intent="resend_confirmation" label="Reenviar e-mail de confirmação" />}
        </div>
        <CreditsForm balance={user.monthlyCredits} lastResult={lastIntent === "credits" ? actionData?.result : undefined} />
      </section>

      <section aria-labelledby="admin-user-ledger">
        <h2 id="admin-user-ledger" className="text-lg font-bold">
          Histórico de créditos
        </h2>
        {ledger.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Sem movimentações.</p>
        ) : (
          <Table head={["Data", "Motivo", "Variação", "Saldo"]}>
            {ledger.map((row) => (
              <tr key={row.id} className="border-t border-slate-200 dark:border-night-700">
                <td className="py-1 pr-3 whitespace-nowrap">{dateTime(row.createdAt)}</td>
                <td className="py-1 pr-3 break-all">{row.reason}</td>
                <td className="py-1 pr-3 tabular-nums">{row.delta > 0 ? `+${row.delta}` : row.delta}</td>
                <td className="py-1 tabular-nums">{row.balanceAfter}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section aria-labelledby="admin-user-audit">
        <h2 id="admin-user-audit" className="text-lg font-bold">
          Registro de ações dos administradores
        </h2>
        {audit.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Nenhuma ação registrada.</p>
        ) : (
          <Table head={["Quando", "Quem", "O quê", "Antes", "Depois", "Motivo"]}>
            {audit.map((row) => (
              <tr key={row.id} className="border-t border-slate-200 align-top dark:border-night-700" data-audit-action={row.action}>
                <td className="py-1 pr-3 whitespace-nowrap">{dateTime(row.createdAt)}</td>
                <td className="py-1 pr-3">{row.adminName ?? "—"}</td>
                <td className="py-1 pr-3">{ACTION_LABELS[row.action] ?? row.action}</td>
                <td className="py-1 pr-3 font-mono text-xs break-all">{describe(row.before)}</td>
                <td className="py-1 pr-3 font-mono text-xs break-all">{describe(row.after)}</td>
                <td className="py-1">{row.reason ?? "—"}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="font-medium break-all">{children}</dd>
    </div>
  );
}

function Table({ head, children }: { head: string[]; children: ReactNode }) {
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="text-slate-600 dark:text-slate-400">
            {head.map((cell) => (
              <th key={cell} scope="col" className="py-1 pr-3 font-medium">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One action without fields: a form with its intent. */
function IntentButton({ intent, label, danger }: { intent: UserIntent; label: string; danger?: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" className="contents">
      <input type="hidden" name="intent" value={intent} />
      <SubmitButton variant={danger ? "danger" : "secondary"} pending={pending} pendingText="Enviando...">
        {label}
      </SubmitButton>
    </Form>
  );
}

function CreditsForm({ balance, lastResult }: { balance: number; lastResult: UserActionData["result"] | undefined }) {
  const [form, fields] = useSchemaForm(userActionSchema, lastResult, { id: "admin-credits", defaultValue: { intent: "credits" } });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "credits";
  return (
    <ConformForm form={form} className="rounded-xl border border-slate-200 p-4 dark:border-night-700">
      <h3 className="font-semibold">Créditos: saldo {balance}</h3>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Um valor positivo concede, um negativo remove. O saldo nunca fica abaixo de zero.
      </p>
      <FormErrors errors={form.errors} />
      <input type="hidden" name="intent" value="credits" />
      <div className="grid gap-x-4 sm:grid-cols-[10rem_1fr]">
        <Field meta={fields.amount} label="Quantidade" type="number" inputMode="numeric" />
        <Field meta={fields.reason} label="Motivo" maxLength={200} />
      </div>
      <SubmitButton pending={pending} pendingText="Salvando...">
        Salvar créditos
      </SubmitButton>
    </ConformForm>
  );
}
