// Form rules of spec §5, shared by the browser (conform, instant feedback) and the server actions
// (the authority). Messages are the spec's exact pt-BR texts where it gives them.
import { z } from "zod";

export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message);

/** Spec's "general password checker": 8–128 chars, lower, upper and digit, no common prefix. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN) problems.push(`A senha deve ter pelo menos ${PASSWORD_MIN} caracteres`);
  if (password.length > PASSWORD_MAX) problems.push("A senha deve ter no máximo 128 caracteres");
  if (!/[a-z]/.test(password)) problems.push("A senha deve conter pelo menos uma letra minúscula");
  if (!/[A-Z]/.test(password)) problems.push("A senha deve conter pelo menos uma letra maiúscula");
  if (!/\d/.test(password)) problems.push("A senha deve conter pelo menos um número");
  if (/^(123|abc|password|admin|qwerty)/i.test(password))
    problems.push("A senha não pode começar com uma sequência comum (123, abc, password, admin, qwerty)");
  return problems;
}

export const signinSchema = z.object({
  email: z
    .string({ error: "Por favor, insira um email válido." })
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX, "Por favor, insira um email válido.")
    .pipe(z.email("Por favor, insira um email válido.")),
  password: z.string({ error: "Por favor, insira sua senha." }).min(1, "Por favor, insira sua senha."),
  redirectTo: z.string().optional(),
});

export const signupSchema = z
  .object({
    name: requiredText("Nome é obrigatório").pipe(z.string().max(NAME_MAX, "Nome muito longo (máximo 100 caracteres)")),
    email: requiredText("Email é obrigatório")
      .toLowerCase()
      .pipe(z.string().max(EMAIL_MAX, "Email inválido").pipe(z.email("Email inválido"))),
    whatsapp: requiredText("WhatsApp é obrigatório").pipe(z.string().max(30, "WhatsApp inválido")),
    password: z.string({ error: "Senha é obrigatória" }).superRefine((password, ctx) => {
      const [first] = passwordProblems(password);
      if (first) ctx.addIssue({ code: "custom", message: first });
    }),
    confirmPassword: z.string({ error: "Senhas não coincidem" }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Senhas não coincidem",
    path: ["confirmPassword"],
    when: () => true, // check the match even while other fields are still invalid
  });

export const emailOnlySchema = z.object({
  email: z
    .string({ error: "Email é obrigatório" })
    .trim()
    .toLowerCase()
    .min(1, "Email é obrigatório")
    .max(EMAIL_MAX, "Email inválido")
    .pipe(z.email("Email inválido")),
});

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1),
    password: z
      .string({ error: `A senha deve ter pelo menos ${PASSWORD_MIN} caracteres` })
      .min(PASSWORD_MIN, `A senha deve ter pelo menos ${PASSWORD_MIN} caracteres`)
      .max(PASSWORD_MAX, "A senha deve ter no máximo 128 caracteres")
      .regex(/[A-Za-z]/, "A senha deve conter pelo menos uma letra e um número.")
      .regex(/\d/, "A senha deve conter pelo menos uma letra e um número."),
    confirmPassword: z.string({ error: "As senhas não coincidem" }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "As senhas não coincidem",
    path: ["confirmPassword"],
    when: () => true,
  });
