import { describe, expect, it } from "vitest";
import { passwordProblems, resetPasswordSchema, signinSchema, signupSchema } from "./schemas";

const validSignup = {
  name: "Maria Silva",
  email: "  Maria@Example.COM ",
  whatsapp: "+55 11 98888-7777",
  password: "Ingles2024",
  confirmPassword: "Ingles2024",
};
const firstError = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((issue) => issue.path[0] === field)?.message;

describe("signinSchema", () => {
  it("trims and lower-cases the email", () => {
    const result = signinSchema.parse({ email: "  Aluno@Nika.LOCAL ", password: "x" });
    expect(result.email).toBe("aluno@nika.local");
  });
  it("uses the spec's messages", () => {
    const result = signinSchema.safeParse({ email: "not-an-email", password: "" });
    expect(firstError(result, "email")).toBe("Por favor, insira um email válido.");
    expect(firstError(result, "password")).toBe("Por favor, insira sua senha.");
  });
});

describe("signupSchema", () => {
  it("accepts a valid form and normalises the email", () => {
    const result = signupSchema.parse(validSignup);
    expect(result.email).toBe("maria@example.com");
    expect(result.name).toBe("Maria Silva");
  });
  it("requires name, email and whatsapp with the spec's messages", () => {
    const result = signupSchema.safeParse({ ...validSignup, name: "  ", email: "", whatsapp: "" });
    expect(firstError(result, "name")).toBe("Nome é obrigatório");
    expect(firstError(result, "email")).toBe("Email é obrigatório");
    expect(firstError(result, "whatsapp")).toBe("WhatsApp é obrigatório");
  });
  it("limits the name to 100 characters", () => {
    const result = signupSchema.safeParse({ ...validSignup, name: "a".repeat(101) });
    expect(firstError(result, "name")).toBe("Nome muito longo (máximo 100 caracteres)");
    expect(signupSchema.safeParse({ ...validSignup, name: "a".repeat(100) }).success).toBe(true);
  });
  it("rejects an invalid email", () => {
    expect(firstError(signupSchema.safeParse({ ...validSignup, email: "maria@" }), "email")).toBe("Email inválido");
  });
  it("shows only the first password problem", () => {
    const result = signupSchema.safeParse({ ...validSignup, password: "abc", confirmPassword: "abc" });
    const messages = result.error!.issues.filter((i) => i.path[0] === "password").map((i) => i.message);
    expect(messages).toEqual(["A senha deve ter pelo menos 8 caracteres"]);
  });
  it("requires the confirmation to match", () => {
    const result = signupSchema.safeParse({ ...validSignup, confirmPassword: "Ingles2025" });
    expect(firstError(result, "confirmPassword")).toBe("Senhas não coincidem");
  });
});

describe("passwordProblems", () => {
  it.each([
    ["Ingles2024", []],
    ["ingles2024", ["A senha deve conter pelo menos uma letra maiúscula"]],
    ["INGLES2024", ["A senha deve conter pelo menos uma letra minúscula"]],
    ["InglesNovo", ["A senha deve conter pelo menos um número"]],
    ["Admin12345", ["A senha não pode começar com uma sequência comum (123, abc, password, admin, qwerty)"]],
  ])("%s", (password, expected) => {
    expect(passwordProblems(password)).toEqual(expected);
  });
  it("caps the length at 128", () => {
    expect(passwordProblems("Aa1" + "x".repeat(126))).toContain("A senha deve ter no máximo 128 caracteres");
  });
});

describe("resetPasswordSchema", () => {
  it("needs 8 characters with a letter and a digit, and a matching confirmation", () => {
    expect(resetPasswordSchema.safeParse({ token: "t", password: "abcdefg1", confirmPassword: "abcdefg1" }).success).toBe(true);
    expect(firstError(resetPasswordSchema.safeParse({ token: "t", password: "abcdefgh", confirmPassword: "abcdefgh" }), "password")).toBe(
      "A senha deve conter pelo menos uma letra e um número.",
    );
    expect(firstError(resetPasswordSchema.safeParse({ token: "t", password: "abc1", confirmPassword: "abc1" }), "password")).toBe(
      "A senha deve ter pelo menos 8 caracteres",
    );
    expect(firstError(resetPasswordSchema.safeParse({ token: "t", password: "abcdefg1", confirmPassword: "abcdefg2" }), "confirmPassword")).toBe(
      "As senhas não coincidem",
    );
  });
});
