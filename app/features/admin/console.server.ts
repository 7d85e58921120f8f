// The admin console's first screen (/admin and /config/admin): the app_config toggles and the usage
// analytics. The analytics are one SQL statement (counts, sums and the sign-up series are computed by
// Postgres; no user row comes to the worker). Definitions: decision 0015.
import { asc, eq, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { notebookColumns, readNotebookAnalytics, type NotebookAnalytics } from "~/features/notebook";
import { requireAdmin } from "~/server/auth.server";
import { jsonValue, rowsOf, type DbOrTx } from "~/server/db.server";
import { forgetFlags } from "~/server/flags.server";
import { parseForm } from "~/server/request.server";
import { appConfig } from "~/server/schema";
import { habitColumns, readHabit, type HabitAnalytics } from "./habit.server";
import { CONFIG_MESSAGES, configSchema, type ConfigActionData } from "./schemas";

export type ConfigRow = { id: number; key: string; value: boolean; text: string | null; description: string; isText: boolean };

/** Keys whose value is text, not a switch. */
export const TEXT_KEYS: ReadonlySet<string> = new Set(["app_name"]);

export async function listConfig(db: DbOrTx): Promise<ConfigRow[]> {
  const rows = await db
    .select({
      id: appConfig.id,
      key: appConfig.configKey,
      value: appConfig.configValue,
      text: appConfig.textValue,
      description: appConfig.description,
    })
    .from(appConfig)
    .orderBy(asc(appConfig.configKey));
  return rows.map((row) => ({ ...row, isText: TEXT_KEYS.has(row.key) }));
}

export type Analytics = {
  totalUsers: number;
  activeUsers30Days: number;
  activeUsers7Days: number;
  profileUpdates30Days: number;
  profileUpdates7Days: number;
  messagesToNika30Days: number;
  flashcardGames30Days: number;
  pronunciationAttempts30Days: number;
  lessonsCompleted30Days: number;
  creditsSpent30Days: { feature: string; credits: number }[];
  refunds30Days: number;
  signupsPerDay: { day: string; count: number }[];
  /** Sign-up cohorts' retention and current streaks (habit.server.ts has the definitions). */
  habit: HabitAnalytics;
  /** Meu caderno's figures (features/notebook/admin/analytics.server.ts has the definitions). */
  notebook: NotebookAnalytics;
};

/** Days of the sign-up series (today included), on the São Paulo calendar. */
export const SIGNUP_DAYS = 30;

/**
 * Every figure of the analytics panel in one statement. "Active" = a session of the user was seen in
 * the window (sessions.last_seen_at, written on sign-in and at most hourly after, or users.last_seen_at
 * for sessions since ended); "profile update" = a row of profile_updates.
 */
export async function loadAnalytics(db: DbOrTx, now = new Date()): Promise<Analytics> {
  const d30 = new Date(now.getTime() - 30 * 86_400_000);
  const d7 = new Date(now.getTime() - 7 * 86_400_000);
  const result = await db.execute(sql`
    select
      (select count(*)::int from users) as total_users,
      (select count(*)::int from users u where u.last_seen_at >= ${d30}
        or exists (select 1 from sessions s where s.user_id = u.id and s.last_seen_at >= ${d30})) as active30,
      (select count(*)::int from users u where u.last_seen_at >= ${d7}
        or exists (select 1 from sessions s where s.user_id = u.id and s.last_seen_at >= ${d7})) as active7,
      (select count(*)::int from profile_updates where created_at >= ${d30}) as profile30,
      (select count(*)::int from profile_updates where created_at >= ${d7}) as profile7,
      (select count(*)::int from chat_messages where role = 'user' and created_at >= ${d30}) as messages30,
      (select count(*)::int from flashcard_games where created_at >= ${d30}) as flashcards30,
      (select count(*)::int from pronunciation_attempts where created_at >= ${d30}) as pronunciation30,
      (select count(*)::int from user_lesson_progress where completed and completed_at >= ${d30}) as lessons30,
      (select coalesce(json_agg(json_build_object('feature', feature, 'credits', credits) order by credits desc, feature), '[]'::json)
        from (select split_part(reason, ':', 1) as feature, (-sum(delta))::int as credits from credit_ledger
              where delta < 0 and created_at >= ${d30} and reason not like 'monthly_renewal%' and reason not like 'admin%'
              group by 1) spent) as spent30,
      (select coalesce(sum(delta), 0)::int from credit_ledger where delta > 0 and reason like 'refund%' and created_at >= ${d30}) as refunds30,
      (select json_agg(json_build_object('day', to_char(day, 'YYYY-MM-DD'), 'count', coalesce(n, 0)) order by day)
        from generate_series((${now}::timestamptz at time zone 'America/Sao_Paulo')::date - ${SIGNUP_DAYS - 1}::int,
                             (${now}::timestamptz at time zone 'America/Sao_Paulo')::date, interval '1 day') as day
        left join (select (created_at at time zone 'America/Sao_Paulo')::date as d, count(*)::int as n from users
                   where created_at >= ${now}::timestamptz - interval '${sql.raw(String(SIGNUP_DAYS + 1))} days' group by 1) signups
          on signups.d = day::date) as signups,
      ${habitColumns(now)},
      ${notebookColumns(now)}`);
  const row = rowsOf(result)[0]!;
  return {
    totalUsers: Number(row.total_users),
    activeUsers30Days: Number(row.active30),
    activeUsers7Days: Number(row.active7),
    profileUpdates30Days: Number(row.profile30),
    profileUpdates7Days: Number(row.profile7),
    messagesToNika30Days: Number(row.messages30),
    flashcardGames30Days: Number(row.flashcards30),
    pronunciationAttempts30Days: Number(row.pronunciation30),
    lessonsCompleted30Days: Number(row.lessons30),
    creditsSpent30Days: jsonValue<{ feature: string; credits: number }[]>(row.spent30),
    refunds30Days: Number(row.refunds30),
    signupsPerDay: jsonValue<{ day: string; count: number }[]>(row.signups) ?? [],
    habit: readHabit(row, now),
    notebook: readNotebookAnalytics(row),
  };
}

export type ConsoleData = { config: ConfigRow[]; analytics: Analytics | null };

/** The console's data: the toggles, and the analytics or null when they failed ('Erro ao carregar análises'). */
export async function loadConsole(context: AppLoadContext): Promise<ConsoleData> {
  const [config, analytics] = await Promise.all([
    listConfig(context.db),
    loadAnalytics(context.db).catch((error) => {
      console.error("[admin] analytics failed", error);
      return null;
    }),
  ]);
  return { config, analytics };
}

/**
 * The toggle form's action (the caller has checked the admin): sets a switch, or app_name's text. The
 * flags are read from the database on every request (no cache), so the next request of every user
 * sees the change. A failure answers 'Falha ao atualizar configuração. Tente novamente.'.
 */
export async function handleConfigUpdate(request: Request, context: AppLoadContext) {
  const submission = await parseForm(request, configSchema);
  const refuse = (status: number, code: string, description?: string) =>
    data(
      {
        result: submission.reply({ formErrors: description ? [CONFIG_MESSAGES.failed, description] : [CONFIG_MESSAGES.failed] }),
        code,
        key: null,
      } satisfies ConfigActionData,
      { status },
    );
  if (submission.status !== "success") return refuse(400, "invalid_config");
  const { key, value, text } = submission.value;
  const isText = TEXT_KEYS.has(key);
  if (isText ? text === undefined : value === undefined) return refuse(400, "invalid_config");
  try {
    const updated = await context.db
      .update(appConfig)
      .set(isText ? { textValue: text!, updatedAt: new Date() } : { configValue: value === "true", updatedAt: new Date() })
      .where(eq(appConfig.configKey, key))
      .returning({ id: appConfig.id });
    if (updated.length === 0) return refuse(404, "unknown_config", CONFIG_MESSAGES.unknown);
    forgetFlags(context);
  } catch (error) {
    console.error("[admin] config update failed", error);
    return refuse(500, "config_update_failed");
  }
  return data({ result: submission.reply({ resetForm: true }), code: null, key } satisfies ConfigActionData);
}

type RouteArgs = { request: Request; context: AppLoadContext };

/** The loader of both console pages (/admin and /config/admin): admins only. */
export async function loadConsolePage({ request, context }: RouteArgs) {
  await requireAdmin(request, context);
  return loadConsole(context);
}

/** The action of both console pages: a toggle or app_name, admins only (403 before the body is read). */
export async function consoleAction({ request, context }: RouteArgs) {
  await requireAdmin(request, context);
  return handleConfigUpdate(request, context);
}
