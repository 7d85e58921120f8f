// The password change form of /config/senha (spec §5 "Password change (settings)"), shared by the
// browser (conform, instant feedback) and the action (the authority), and the §8 texts of its answers.
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";

export const PASSWORD_CHANGE_MESSAGES = {
  currentRequired: "Digite sua senha atual para confirmar a alteração.",
  tooShort: "A nova senha deve ter pelo menos 8 caracteres, incluir números e letras.",
  letterAndDigit: "A senha deve conter pelo menos uma letra e um número.",
  tooLong: "A senha deve ter no máximo 128 caracteres",
  mismatch: "As senhas não coincidem.",
  /** §8: the server's message under the generic title. */
  failedTitle: "Erro ao alterar senha.",
  wrongCurrent: "A senha atual está incorreta.",
  rateLimitedTitle: "Muitas tentativas",
  sessionExpired: "Sessão expirada. Faça login novamente.",
  unexpected: "Erro inesperado. Tente novamente.",
  success: "Senha alterada com sucesso!",
  successDescription: "Por segurança, as outras sessões da sua conta foram encerradas.",
} as const;

export const rateLimitedDescription = (minutes: number) => `Aguarde ${minutes} minutos antes de tentar novamente.`;

const M = PASSWORD_CHANGE_MESSAGES;

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string({ error: M.currentRequired }).min(1, M.currentRequired),
    newPassword: z
      .string({ error: M.tooShort })
      .min(8, M.tooShort)
      .max(128, M.tooLong)
      .regex(/\p{L}/u, M.letterAndDigit)
      .regex(/\d/, M.letterAndDigit),
    confirmPassword: z.string({ error: M.mismatch }),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: M.mismatch,
    path: ["confirmPassword"],
    when: () => true, // check the match even while other fields are still invalid
  });

/** Why a change was refused; the page branches on it, never on the message. */
export type PasswordChangeCode = "invalid_input" | "wrong_password" | "rate_limited" | "unexpected";

export type PasswordChangeActionData = { result: SubmissionResult<string[]>; code: PasswordChangeCode };
