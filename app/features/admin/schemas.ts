// The admin console's forms (shared by the pages and their actions) and its messages (spec §8).
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";

export { ANALYTICS_ERROR, CONFIG_MESSAGES } from "./messages";

/** One toggle: a switch's new value ("true"/"false") or app_name's text. */
export const configSchema = z.object({
  key: z.string().trim().min(1).max(100),
  value: z.enum(["true", "false"]).optional(),
  text: z.string().trim().min(1, "Informe um valor").max(60, "Use no máximo 60 caracteres").optional(),
});

export type ConfigActionData = { result: SubmissionResult<string[]>; code: string | null; key: string | null };

/** /admin/users?q=&page= */
export const USERS_PER_PAGE = 20;
export const userSearchSchema = z.object({
  q: z.string().trim().max(254).catch(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export const CREDIT_LIMIT = 10_000;

export const userActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("block") }),
  z.object({ intent: z.literal("unblock") }),
  z.object({ intent: z.literal("make_admin") }),
  z.object({ intent: z.literal("remove_admin") }),
  z.object({ intent: z.literal("resend_confirmation") }),
  z.object({
    intent: z.literal("credits"),
    amount: z.coerce
      .number({ message: "Informe um número inteiro" })
      .int("Informe um número inteiro")
      .min(-CREDIT_LIMIT, `Entre -${CREDIT_LIMIT} e ${CREDIT_LIMIT}`)
      .max(CREDIT_LIMIT, `Entre -${CREDIT_LIMIT} e ${CREDIT_LIMIT}`)
      .refine((n) => n !== 0, "Informe um valor diferente de zero"),
    reason: z
      .string({ message: "Informe o motivo" })
      .trim()
      .min(3, "Informe o motivo (pelo menos 3 caracteres)")
      .max(200, "Use no máximo 200 caracteres"),
  }),
]);
export type UserAction = z.infer<typeof userActionSchema>;
export type UserIntent = UserAction["intent"];

export const USER_MESSAGES = {
  notFound: "Usuário não encontrado",
  blocked: "Usuário bloqueado",
  unblocked: "Usuário desbloqueado",
  alreadyBlocked: "O usuário já está bloqueado",
  notBlocked: "O usuário não está bloqueado",
  selfBlock: "Você não pode bloquear a sua própria conta",
  madeAdmin: "Agora é administrador",
  removedAdmin: "Não é mais administrador",
  alreadyAdmin: "O usuário já é administrador",
  notAdmin: "O usuário não é administrador",
  lastAdmin: "Não é possível remover o último administrador",
  lastAdminDescription: "Promova outra pessoa antes de remover o seu acesso.",
  creditsSaved: "Créditos atualizados",
  belowZero: "Saldo insuficiente",
  belowZeroDescription: "O saldo não pode ficar abaixo de zero.",
  confirmationSent: "E-mail de confirmação reenviado",
  alreadyConfirmed: "O e-mail já está confirmado",
  resendLimited: "Aguarde para reenviar",
  invalid: "Verifique os campos",
} as const;

export type UserActionData = { result: SubmissionResult<string[]>; code: string | null };

export const ACTION_LABELS: Record<string, string> = {
  block: "Bloqueou",
  unblock: "Desbloqueou",
  make_admin: "Tornou administrador",
  remove_admin: "Removeu de administrador",
  credits: "Ajustou créditos",
  resend_confirmation: "Reenviou a confirmação",
};
