// Flag names and the feature-disabled error shape, shared by server and browser code.
export const FLAG_KEYS = [
  "feature_chat_portuguese",
  "feature_chat_english",
  "feature_chat_game",
  "feature_chat_roleplay",
  "feature_chat_english_test",
  "feature_chat_live",
  "feature_teacher_flix",
  "feature_flashcards",
  "feature_pronunciation",
  "email_confirmation_required",
  "enable_account_creation_on_signin",
  "signup_enabled",
] as const;
export type FlagKey = (typeof FLAG_KEYS)[number];
export type Flags = Record<FlagKey, boolean> & { app_name: string };

/** Data of the 403 thrown by requireFeature; the error boundaries render it as the feature-disabled screen. */
export type FeatureDisabled = { featureDisabled: true; feature: FlagKey };

export function isFeatureDisabled(value: unknown): value is FeatureDisabled {
  return typeof value === "object" && value !== null && (value as FeatureDisabled).featureDisabled === true;
}
