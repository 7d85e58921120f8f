// Rules of the Conta tab (spec §3, §4, §5, §9), shared by the page and the server actions: the profile fields'
// limits and messages, the statistics' derived values, the credit history's labels and the São Paulo renewal clock.
// Free of zod, so /config downloads none (decision 0019); the forms' schemas are account-schemas.ts.
import { saoPauloParts } from "~/lib/dates";

/** Spec §5 text sanitiser limit. */
export const TEXT_MAX = 5000;
export const WHATSAPP_MAX = 30;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/**
 * The spec's text sanitiser (§5), as far as it makes sense here: truncated to 5000 characters, control
 * characters dropped, spaces collapsed and trimmed. Quotes, backslash and percent are kept as typed —
 * the database takes bound parameters and React escapes what it prints, so escaping them would only
 * show backslashes in a learner's name ("D\'Ávila").
 */
export function sanitizeText(text: string): string {
  return (
    text
      .slice(0, TEXT_MAX)
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .replace(/[\u0000-\u001f\u007f]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

export const NAME_MESSAGES = { required: "Nome é obrigatório", tooLong: "Nome muito longo (máximo 100 caracteres)" } as const;
export const WHATSAPP_MESSAGES = { required: "WhatsApp é obrigatório", invalid: "WhatsApp inválido" } as const;
export const EMAIL_MESSAGES = {
  required: "Email é obrigatório",
  invalid: "Email inválido",
  tooLong: "Email muito longo (máximo 254 caracteres)",
  same: "Este já é o seu email atual",
} as const;

/** Phone characters only, 8 to 15 digits (E.164's range), at most 30 characters as typed. */
export function isWhatsapp(value: string) {
  const digits = value.replace(/\D/g, "").length;
  return /^\+?[\d\s().-]+$/.test(value) && digits >= 8 && digits <= 15;
}

export const ACCOUNT_INTENTS = ["name", "whatsapp", "email", "resend_email", "cancel_email"] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];
export const EDITABLE_FIELDS = ["name", "email", "whatsapp"] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

// ——— statistics (spec §3) ———

export type Statistics = {
  conversationsStarted: number;
  flashcardsPlayed: number;
  lessonsWatched: number;
  modulesCompleted: number;
  courseCompletion: number;
};

/** Spec §3: onboarding done once a conversation or a flashcard game happened; engagement = min(100, activities × 10). */
export function derivedStatistics(stats: Pick<Statistics, "conversationsStarted" | "flashcardsPlayed">) {
  const totalActivities = stats.conversationsStarted + stats.flashcardsPlayed;
  return { hasCompletedOnboarding: totalActivities > 0, totalActivities, engagement: Math.min(100, totalActivities * 10) };
}

// ——— credit history ———

const FEATURE_LABELS: Record<string, string> = {
  chat_message: "Mensagem para a Nika",
  flashcards: "Jogo de flashcards",
  pronunciation: "Tentativa de pronúncia",
};

const MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"];

/** A ledger reason ("flashcards", "refund:provider_failed", "monthly_renewal:2026-11", …) in pt-BR. */
export function ledgerLabel(reason: string, delta: number): string {
  const [kind = "", detail = ""] = reason.split(/:(.*)/s);
  if (FEATURE_LABELS[reason]) return FEATURE_LABELS[reason]!;
  if (kind === "monthly_renewal") {
    const [year, month] = detail.split("-");
    const name = MONTHS[Number(month) - 1];
    return name ? `Renovação mensal (${name} de ${year})` : "Renovação mensal";
  }
  if (kind === "refund") return detail === "pronunciation" ? "Devolução (pronúncia)" : "Devolução (falha ao responder)";
  if (kind === "signup" || reason === "seed") return "Créditos de boas-vindas";
  if (kind === "purchase_refund") return "Estorno de compra";
  if (kind === "purchase") return "Compra de créditos";
  if (kind.startsWith("admin")) return delta >= 0 ? "Créditos concedidos pela equipe" : "Créditos removidos pela equipe";
  return delta >= 0 ? "Créditos adicionados" : "Créditos usados";
}

// ——— São Paulo clock (spec §9: renewal on the 1st, a daily countdown to midnight there) ———

/** The next renewal (the 1st of next month, São Paulo) as YYYY-MM-DD. */
export function nextRenewalDate(now: Date): string {
  const { year, month } = saoPauloParts(now);
  const next = month === 12 ? { y: year + 1, m: 1 } : { y: year, m: month + 1 };
  return `${next.y}-${String(next.m).padStart(2, "0")}-01`;
}

/** "1 de dezembro de 2026" */
export function formatRenewalDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${day} de ${MONTHS[month! - 1]} de ${year}`;
}

/** Seconds until midnight in São Paulo. */
export function secondsToSaoPauloMidnight(now: Date): number {
  const { hour, minute, second } = saoPauloParts(now);
  return 24 * 3600 - (hour * 3600 + minute * 60 + second);
}

/** "5 h 07 min" */
export function formatCountdown(seconds: number): string {
  const minutes = Math.max(0, Math.ceil(seconds / 60));
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
}
