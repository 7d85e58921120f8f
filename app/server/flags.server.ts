// Feature flags (spec §9): read once per request from app_config. Everything is enabled unless the row
// says false; email_confirmation_required is the exception — on only when explicitly true.
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { FLAG_KEYS, isFeatureDisabled, type FeatureDisabled, type FlagKey, type Flags } from "~/lib/flags";
import { appConfig } from "./schema";

export { FLAG_KEYS, isFeatureDisabled, type FeatureDisabled, type FlagKey, type Flags };

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

/** The one flag rule: is this feature on for this request? */
export async function isFeatureEnabled(context: AppLoadContext, key: FlagKey): Promise<boolean> {
  return (await getFlags(context))[key];
}

/**
 * Gate a loader or action: when the flag is off, throws a 403 that the root error boundary renders as
 * the "Recurso Temporariamente Indisponível" screen.
 */
export async function requireFeature(context: AppLoadContext, key: FlagKey): Promise<void> {
  if (!(await isFeatureEnabled(context, key))) throw data({ featureDisabled: true, feature: key } satisfies FeatureDisabled, { status: 403 });
}
