// Feature flags (spec §9), rows of app_config. Everything is enabled unless the row says false;
// email_confirmation_required is the exception — on only when explicitly true.
// They change only when an admin toggles one, so each isolate keeps what it read for FLAGS_STALE_MS
// (decision 0019): a page needs no flags query most of the time. The isolate where the admin toggled
// forgets them at once; every other isolate follows within the bound.
import { data, type AppLoadContext } from "react-router";
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

/** How stale an isolate's flags may be: a toggle reaches every isolate within this. */
export const FLAGS_STALE_MS = 5_000;

/** Per isolate: workerd hands every request of an isolate the same (parsed) env object. */
const isolateFlags = new WeakMap<object, { flags: Flags; readAt: number }>();

export async function getFlags(context: AppLoadContext): Promise<Flags> {
  const memoised = context.memo.get("flags") as Promise<Flags> | undefined;
  if (memoised) return memoised;
  const isolate = context.cloudflare.env;
  const kept = isolateFlags.get(isolate);
  const loading =
    kept && Date.now() - kept.readAt < FLAGS_STALE_MS
      ? Promise.resolve(kept.flags)
      : context.db
          .select({ configKey: appConfig.configKey, configValue: appConfig.configValue, textValue: appConfig.textValue })
          .from(appConfig)
          .then(flagsFromRows)
          .then((flags) => {
            isolateFlags.set(isolate, { flags, readAt: Date.now() });
            return flags;
          });
  context.memo.set("flags", loading);
  return loading;
}

/** After a toggle: this isolate (and this request) read the flags again on next use. */
export function forgetFlags(context: AppLoadContext) {
  isolateFlags.delete(context.cloudflare.env);
  context.memo.delete("flags");
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
