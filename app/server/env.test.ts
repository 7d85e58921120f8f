import { afterEach, describe, expect, it, vi } from "vitest";
import { TEST_ENV } from "../../tests/integration/harness";
import { ConfigError, loadEnv, parseEnv } from "./env";

const VALID = {
  APP_ENV: "production",
  DATABASE_URL: "postgres://user:secret@ep-x.neon.tech/neondb?sslmode=require",
  SESSION_SECRET: "a-long-random-string",
};

const problemsOf = (raw: Record<string, unknown>) => {
  try {
    parseEnv(raw);
  } catch (error) {
    if (error instanceof ConfigError) return { message: error.message, problems: error.problems };
    throw error;
  }
  throw new Error("expected a ConfigError");
};

describe("parseEnv", () => {
  it("accepts the three required settings alone; optional providers stay unset", () => {
    const env = parseEnv(VALID);
    expect(env).toEqual(VALID);
    expect(env.MAIL_API_URL).toBeUndefined();
    expect(env.OPENAI_BASE_URL).toBeUndefined();
  });

  it("names a missing setting in one message", () => {
    const { SESSION_SECRET: _, ...raw } = VALID;
    expect(problemsOf(raw).message).toBe("Configuração inválida: SESSION_SECRET ausente");
  });

  it("treats blank values as missing (`MAIL_API_URL=` in .dev.vars)", () => {
    expect(problemsOf({ ...VALID, DATABASE_URL: "  " }).message).toBe("Configuração inválida: DATABASE_URL ausente");
    const env = parseEnv({ ...VALID, MAIL_API_URL: "", OPENAI_BASE_URL: "", OPENAI_API_KEY: "", MONTHLY_CREDITS: "" });
    expect("MAIL_API_URL" in env || "OPENAI_BASE_URL" in env || "OPENAI_API_KEY" in env || "MONTHLY_CREDITS" in env).toBe(false);
  });

  it("lists every problem at once, without echoing values", () => {
    const { message, problems } = problemsOf({
      APP_ENV: "prod",
      DATABASE_URL: "mysql://user:hunter2@db/app",
      APP_URL: "nika.app",
      MAIL_API_URL: "ftp://mail.example",
      OPENAI_BASE_URL: "not a url",
      NIKA_CHAT_WEBHOOK_URL: "javascript:alert(1)",
      MONTHLY_CREDITS: "0",
    });
    expect(problems).toEqual([
      "APP_ENV deve ser production, development ou test",
      "DATABASE_URL não é uma URL postgres:// válida",
      "SESSION_SECRET ausente",
      "APP_URL não é uma URL http(s) válida",
      "MAIL_API_URL não é uma URL http(s) válida",
      "MONTHLY_CREDITS deve ser um número inteiro positivo",
      "OPENAI_BASE_URL não é uma URL http(s) válida",
      "NIKA_CHAT_WEBHOOK_URL não é uma URL http(s) válida",
    ]);
    expect(message).not.toContain("hunter2");
  });

  it("takes Conversa ao vivo's provider only at a ws(s):// URL, and its credits per minute as a positive integer", () => {
    expect(parseEnv({ ...VALID, OPENAI_REALTIME_URL: "wss://api.openai.com/v1/realtime", LIVE_CREDITS_PER_MINUTE: " 2 " })).toMatchObject({
      OPENAI_REALTIME_URL: "wss://api.openai.com/v1/realtime",
      LIVE_CREDITS_PER_MINUTE: "2",
    });
    expect(problemsOf({ ...VALID, OPENAI_REALTIME_URL: "https://api.openai.com/v1/realtime", LIVE_CREDITS_PER_MINUTE: "0" }).problems).toEqual([
      "OPENAI_REALTIME_URL não é uma URL ws(s) válida",
      "LIVE_CREDITS_PER_MINUTE deve ser um número inteiro positivo",
    ]);
  });

  it("accepts postgresql:// and local URLs with ports", () => {
    expect(() =>
      parseEnv({
        ...VALID,
        DATABASE_URL: "postgresql://postgres:postgres@127.0.0.1:54320/postgres",
        APP_URL: "http://localhost:8787",
        OPENAI_BASE_URL: "http://127.0.0.1:4010/v1",
        NIKA_USER_AUDIO_WEBHOOK_URL: "https://n8n.example/webhook/nika-user-audio",
      }),
    ).not.toThrow();
  });

  it("MONTHLY_CREDITS: a positive integer (string, or a number from wrangler [vars])", () => {
    expect(parseEnv({ ...VALID, MONTHLY_CREDITS: "50" }).MONTHLY_CREDITS).toBe("50");
    expect(parseEnv({ ...VALID, MONTHLY_CREDITS: 120 }).MONTHLY_CREDITS).toBe("120");
    expect(parseEnv({ ...VALID, MONTHLY_CREDITS: " 7 " }).MONTHLY_CREDITS).toBe("7");
    for (const bad of ["-1", "0", "1.5", "lots", 0, 2.5])
      expect(problemsOf({ ...VALID, MONTHLY_CREDITS: bad }).problems).toEqual(["MONTHLY_CREDITS deve ser um número inteiro positivo"]);
  });

  it("passes bindings and undeclared names through untouched", () => {
    const MEDIA = { get() {} };
    const ASSETS = { fetch() {} };
    const LESSON_CHANNELS = { idFromName() {} };
    const env = parseEnv({ ...VALID, MEDIA, ASSETS, LESSON_CHANNELS, AI: undefined, EXTRA: "x" }) as unknown as Record<string, unknown>;
    expect(env.MEDIA).toBe(MEDIA);
    expect(env.ASSETS).toBe(ASSETS);
    expect(env.LESSON_CHANNELS).toBe(LESSON_CHANNELS);
    expect(env.EXTRA).toBe("x");
    expect("AI" in env && env.AI !== undefined).toBe(false);
  });

  it("accepts the settings of every local setup (.dev.vars.example, e2e, integration harness)", () => {
    expect(() => parseEnv(TEST_ENV as unknown as Record<string, unknown>)).not.toThrow();
    expect(() =>
      parseEnv({
        APP_ENV: "development",
        DATABASE_URL: "postgres://postgres:postgres@127.0.0.1:54320/postgres",
        SESSION_SECRET: "dev-only-change-me",
        APP_URL: "http://localhost:8787",
        MAIL_API_URL: "",
        MAIL_API_KEY: "",
        OPENAI_BASE_URL: "",
        OPENAI_API_KEY: "",
      }),
    ).not.toThrow();
  });
});

describe("loadEnv", () => {
  afterEach(() => vi.restoreAllMocks());

  it("parses once per env object", () => {
    const raw = { ...VALID };
    const first = loadEnv(raw);
    expect(loadEnv(raw)).toBe(first);
    expect(loadEnv({ ...VALID })).not.toBe(first);
  });

  it("rethrows the same ConfigError on every call and logs it once per isolate", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const raw = { ...VALID, APP_URL: "nope", MONTHLY_CREDITS: "-3" };
    const message = "Configuração inválida: APP_URL não é uma URL http(s) válida; MONTHLY_CREDITS deve ser um número inteiro positivo";
    expect(() => loadEnv(raw)).toThrow(message);
    expect(() => loadEnv(raw)).toThrow(message);
    expect(() => loadEnv({ ...raw })).toThrow(message);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(`[config] ${message}`);
  });
});
