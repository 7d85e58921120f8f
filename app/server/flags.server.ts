// Feature flags (spec §9): read once per request from app_config. Everything is enabled unless the row
// says false; email_confirmation_required is the exception — on only when explicitly true.
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { appConfig } from "./schema";

export const FLAG_KEYS = [
  "feature_chat_portuguese",
  "feature_chat_english",
  "feature_chat_game",
  "feature_chat_roleplay",
  "feature_chat_english_test",
  "feature_teacher_flix",
  "feature_flashcards",
  "feature_pronunciation",
  "email_confirmation_required",
  "enable_account_creation_on_signin",
  "signup_enabled",
] as const;
export type FlagKey = (typeof FLAG_KEYS)[number];
export type Flags = Record<FlagKey, boolean> & { app_name: string };

const OFF_UNLESS_TRUE: ReadonlySet<FlagKey> = new Set(["email_confirmation_required"]);

export function flagsFromRows(rows: { configKey: string; configValue: boolean | null; textValue: string | null }[]): Flags {
  const byKey = new Map(rows.map((row) => [row.configKey, row]));
  const flags = { app_name: byKey.get("app_name")?.textValue || "Nika" } as Flags;
  for (const key of FLAG_KEYS) {
    const value = byKey.get(key)?.configValue;
    flags[key] = OFF_UNLESS_TRUE.has(key) ? value === true : value !== false;
  }
  return flags;
}

export async function getFlags(context: AppLoadContext): Promise<Flags> {
  const cached = context.memo.get("flags") as Promise<Flags> | undefined;
  if (cached) return cached;
  const loading = context.db
    .select({ configKey: appConfig.configKey, configValue: appConfig.configValue, textValue: appConfig.textValue })
    .from(appConfig)
    .then(flagsFromRows);
  context.memo.set("flags", loading);
  return loading;
}

export type FeatureDisabled = { featureDisabled: true; feature: FlagKey };

export function isFeatureDisabled(value: unknown): value is FeatureDisabled {
  return typeof value === "object" && value !== null && (value as FeatureDisabled).featureDisabled === true;
}

/**
 * Gate a loader or action: when the flag is off, throws a 403 that the root error boundary renders as
 * the "Recurso Temporariamente Indisponível" screen.
 */
export async function requireFeature(context: AppLoadContext, key: FlagKey): Promise<void> {
  const flags = await getFlags(context);
  if (!flags[key]) throw data({ featureDisabled: true, feature: key } satisfies FeatureDisabled, { status: 403 });
}
