// The daily goal's radio group (on /config/app and, once, on the home page) and the "Lembrete diário" switch of
// /config/app: plain post forms (a redirect with a toast after saving), so they work without JavaScript.
import { Form, useNavigation } from "react-router";
import { SubmitButton } from "~/components/button";

/**
 * A refused choice's message. Not `FieldError` of ~/components/form-fields: that module brings conform's client code,
 * which the home page (where the goal is offered) otherwise does not load.
 */
function ChoiceError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
      {error}
    </p>
  ) : null;
}

export type GoalOption = { points: number; label: string };

/** Whether this page is submitting the form of `intent` (the tab has other forms). */
function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

const optionClass =
  "flex cursor-pointer flex-col rounded-xl border-2 border-slate-200 px-3 py-2 text-sm hover:bg-slate-50 has-checked:border-indigo-600 has-checked:bg-indigo-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-500 dark:border-night-700 dark:hover:bg-night-800 dark:has-checked:border-indigo-300 dark:has-checked:bg-indigo-400/15";

export function DailyGoalForm({
  goals,
  current,
  error,
  legend,
  id = "meta",
}: {
  goals: readonly GoalOption[];
  current: number;
  error?: string;
  legend: string;
  id?: string;
}) {
  const errorId = `${id}-goal`;
  const pending = useSubmitting("daily_goal");
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="daily_goal" />
      <fieldset aria-describedby={error ? `${errorId}-error` : undefined}>
        <legend className="mb-2 text-sm font-medium text-slate-800 dark:text-slate-200">{legend}</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {goals.map((goal) => (
            <label key={goal.points} className={optionClass}>
              <input type="radio" name="goal" value={goal.points} defaultChecked={goal.points === current} className="sr-only" />
              <span className="font-semibold">{goal.label}</span>
              <span className="text-slate-700 dark:text-slate-300">{goal.points} pontos por dia</span>
            </label>
          ))}
        </div>
      </fieldset>
      <ChoiceError id={errorId} error={error} />
      <SubmitButton className="mt-3" variant="secondary" pending={pending} pendingText="Salvando...">
        Salvar meta
      </SubmitButton>
    </Form>
  );
}

export function ReminderForm({ optIn, error }: { optIn: boolean; error?: string }) {
  const pending = useSubmitting("reminder");
  return (
    <section aria-labelledby="lembrete-titulo">
      <h2 id="lembrete-titulo" className="mb-2 text-lg font-semibold">
        Lembrete diário
      </h2>
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
        Um e-mail por dia, no seu horário de costume, quando você tem uma ofensiva e ainda não praticou. Cada e-mail tem um link para parar de
        receber.
      </p>
      <p className="mb-3 text-sm font-medium" data-testid="reminder-state">
        {optIn ? "Lembrete diário ativado." : "Lembrete diário desativado."}
      </p>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="reminder" />
        <input type="hidden" name="reminder" value={optIn ? "off" : "on"} />
        <SubmitButton variant="secondary" pending={pending} pendingText="Salvando...">
          {optIn ? "Desativar lembrete diário" : "Ativar lembrete diário"}
        </SubmitButton>
      </Form>
      <ChoiceError id="reminder" error={error} />
    </section>
  );
}
