// The worker's settings are checked once, when the load context is built (load-context.ts, and the
// cron in server.ts): a missing or malformed variable is one clear error naming it, not a 500 later.
// See docs/decisions/0011-security-headers-and-config.md.
import { z } from "zod";
/** What the worker calls on a lesson's LessonChannel object (the class is app/features/courses/lesson-channel.server.ts). */
export interface LessonChannelObject extends Rpc.DurableObjectBranded {
  notifyComment(lessonId: string): Promise<number>;
  closeUser(userId: string): Promise<number>;
}

/** What the worker calls on a learner's LiveConversation object (the class is app/features/live/relay.server.ts). */
export interface LiveConversationObject extends Rpc.DurableObjectBranded {
  closeUser(userId: string): Promise<number>;
}

/** Worker bindings and variables (wrangler.toml [vars], secrets, .dev.vars). */
export interface Env {
  APP_ENV: "production" | "development" | "test";
  /**
   * Postgres URL: Neon in production, the embedded database's TCP port locally. The worker connects to it over TCP
   * unless HYPERDRIVE is bound (decision 0020).
   */
  DATABASE_URL: string;
  SESSION_SECRET: string;
  /** The secret SESSION_SECRET replaced, kept while what it signed lives on: still accepted, never used to sign. */
  SESSION_SECRET_PREVIOUS?: string;
  /** Public origin used to build links in e-mails, e.g. https://nika.app */
  APP_URL?: string;
  /** Resend-compatible e-mail API: POST {MAIL_API_URL}/emails with a Bearer key. */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  SUPPORT_EMAIL?: string;
  /** Credits granted on the first day of each month (São Paulo time). */
  MONTHLY_CREDITS?: string;
  MEDIA: R2Bucket;
  ASSETS: Fetcher;
  /** Hyperdrive in front of Neon (optional): when bound, the worker's database connections go through its pool. */
  HYPERDRIVE?: Hyperdrive;
  /** One Durable Object per lesson pushing "new comment" over WebSockets. Absent in unit tests and vite dev. */
  LESSON_CHANNELS?: DurableObjectNamespace<LessonChannelObject>;
  /** One Durable Object per learner relaying their live spoken session (Conversa ao vivo). Absent in unit tests and vite dev. */
  LIVE_CONVERSATIONS?: DurableObjectNamespace<LiveConversationObject>;
  /** Any OpenAI-compatible API (OpenAI, Groq, OpenRouter, a local server), e.g. https://api.openai.com/v1. Takes precedence. */
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_CHAT_MODEL?: string;
  /** The model that reviews a learner's turn for "Meu caderno" (default: OPENAI_CHAT_MODEL). */
  OPENAI_REVIEW_MODEL?: string;
  OPENAI_TRANSCRIBE_MODEL?: string;
  OPENAI_TTS_MODEL?: string;
  /**
   * An OpenAI-Realtime-compatible WebSocket (wss://…/v1/realtime) for Conversa ao vivo, reached with OPENAI_API_KEY.
   * Unset → no live conversation anywhere.
   */
  OPENAI_REALTIME_URL?: string;
  /** The realtime model (default gpt-realtime) and voice (default marin). */
  OPENAI_REALTIME_MODEL?: string;
  OPENAI_REALTIME_VOICE?: string;
  /** Credits a live conversation spends at the start of each started minute (default 1). */
  LIVE_CREDITS_PER_MINUTE?: string;
  /** Tests only (honoured when APP_ENV=test): the length of a live minute in ms, every live limit scaled with it. */
  LIVE_MINUTE_MS?: string;
  /** Workers AI binding; used when OPENAI_BASE_URL is unset. Never available offline. */
  AI?: Ai;
  /** Spec §7 automation webhooks ({product}-nika and {product}-user-audio), for existing deployments. */
  NIKA_CHAT_WEBHOOK_URL?: string;
  NIKA_USER_AUDIO_WEBHOOK_URL?: string;
  /** Azure Speech pronunciation assessment (short-audio REST): the key and the region, or an endpoint overriding the base URL. */
  AZURE_SPEECH_KEY?: string;
  AZURE_SPEECH_REGION?: string;
  AZURE_SPEECH_ENDPOINT?: string;
  /** Spec §7 automation webhooks of the pronunciation game: pronunciation-game, pronunciation-game-source, user-level. */
  NIKA_PRONUNCIATION_WEBHOOK_URL?: string;
  NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL?: string;
  NIKA_USER_LEVEL_WEBHOOK_URL?: string;
  /** Google sign-in (OpenID Connect, authorization code + PKCE). Both unset → no Google button, its routes 404. */
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** Overrides of Google's endpoints (tests point them at the local fake). */
  GOOGLE_AUTHORIZATION_URL?: string;
  GOOGLE_TOKEN_URL?: string;
  GOOGLE_USERINFO_URL?: string;
  /** Stripe Checkout for credit packs. The secret key unset → purchases are unavailable (the page says so). */
  STRIPE_SECRET_KEY?: string;
  /** The signing secret of the webhook endpoint (whsec_…), for POST /api/stripe/webhook. */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Overrides https://api.stripe.com (tests point it at the local fake). */
  STRIPE_API_URL?: string;
  /** The credit packs on sale, `credits:price-in-centavos` comma-separated, e.g. `50:990,150:2490,400:5990`. */
  CREDIT_PACKS?: string;
}

export const isProduction = (env: Pick<Env, "APP_ENV">) => env.APP_ENV === "production";

/** The bindings: passed through untouched (never parsed; absent ones stay absent). */
type Bindings = "MEDIA" | "ASSETS" | "LESSON_CHANNELS" | "LIVE_CONVERSATIONS" | "AI" | "HYPERDRIVE";
type EnvVars = Omit<Env, Bindings>;

/** Blank values (`MAIL_API_URL=` in .dev.vars) mean "not set". */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const missingOr = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "ausente" : message);

const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const text = z.string({ error: missingOr("deve ser um texto") });
const httpUrl = z.url({ protocol: /^https?$/, error: "não é uma URL http(s) válida" });
const webSocketUrl = z.url({ protocol: /^wss?$/, error: "não é uma URL ws(s) válida" });
const postgresUrl = text.refine((value) => {
  try {
    return /^postgres(ql)?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}, "não é uma URL postgres:// válida");
const positiveInteger = z
  .union([z.string(), z.number()], { error: "deve ser um número inteiro positivo" })
  .transform((value) => String(value).trim())
  .refine((value) => /^\d+$/.test(value) && Number(value) > 0, "deve ser um número inteiro positivo");

const envSchema = z.object({
  APP_ENV: required(z.enum(["production", "development", "test"], { error: missingOr("deve ser production, development ou test") })),
  DATABASE_URL: required(postgresUrl),
  SESSION_SECRET: required(text),
  SESSION_SECRET_PREVIOUS: optional(text),
  APP_URL: optional(httpUrl),
  MAIL_API_URL: optional(httpUrl),
  MAIL_API_KEY: optional(text),
  MAIL_FROM: optional(text),
  SUPPORT_EMAIL: optional(text),
  MONTHLY_CREDITS: optional(positiveInteger),
  OPENAI_BASE_URL: optional(httpUrl),
  OPENAI_API_KEY: optional(text),
  OPENAI_CHAT_MODEL: optional(text),
  OPENAI_REVIEW_MODEL: optional(text),
  OPENAI_TRANSCRIBE_MODEL: optional(text),
  OPENAI_TTS_MODEL: optional(text),
  OPENAI_REALTIME_URL: optional(webSocketUrl),
  OPENAI_REALTIME_MODEL: optional(text),
  OPENAI_REALTIME_VOICE: optional(text),
  LIVE_CREDITS_PER_MINUTE: optional(positiveInteger),
  LIVE_MINUTE_MS: optional(positiveInteger),
  NIKA_CHAT_WEBHOOK_URL: optional(httpUrl),
  NIKA_USER_AUDIO_WEBHOOK_URL: optional(httpUrl),
  AZURE_SPEECH_KEY: optional(text),
  AZURE_SPEECH_REGION: optional(text),
  AZURE_SPEECH_ENDPOINT: optional(httpUrl),
  NIKA_PRONUNCIATION_WEBHOOK_URL: optional(httpUrl),
  NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL: optional(httpUrl),
  NIKA_USER_LEVEL_WEBHOOK_URL: optional(httpUrl),
  GOOGLE_CLIENT_ID: optional(text),
  GOOGLE_CLIENT_SECRET: optional(text),
  GOOGLE_AUTHORIZATION_URL: optional(httpUrl),
  GOOGLE_TOKEN_URL: optional(httpUrl),
  GOOGLE_USERINFO_URL: optional(httpUrl),
  STRIPE_SECRET_KEY: optional(text),
  STRIPE_WEBHOOK_SECRET: optional(text),
  STRIPE_API_URL: optional(httpUrl),
  CREDIT_PACKS: optional(
    text.refine(
      (value) => value.split(",").every((pack) => /^\s*[1-9]\d{0,5}\s*:\s*[1-9]\d{1,7}\s*$/.test(pack)),
      "deve ser créditos:centavos separados por vírgula, ex. 50:990,150:2490",
    ),
  ),
});

// Compile-time: the schema parses exactly the variables `Env` declares, with the same types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesEnv: Same<z.output<typeof envSchema>, EnvVars> & Same<keyof z.output<typeof envSchema>, keyof EnvVars> = true;
void schemaMatchesEnv;

/** A missing or malformed setting. The message names every offending variable (never its value). */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly problems: string[]) {
    super(`Configuração inválida: ${problems.join("; ")}`);
  }
}

/**
 * Checks the variables and returns the env with them normalised (blank → unset, MONTHLY_CREDITS
 * trimmed); bindings and anything undeclared are kept as they are. Throws a ConfigError.
 */
export function parseEnv(raw: Record<string, unknown>): Env {
  const result = envSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".") || "env"} ${issue.message}`));
  }
  const env: Record<string, unknown> = { ...raw };
  for (const [name, value] of Object.entries(result.data)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env as unknown as Env;
}

const parsed = new WeakMap<object, Env | ConfigError>();
const logged = new Set<string>();

/**
 * `parseEnv` once per env object (workerd hands every request of an isolate the same one), so a
 * request pays a WeakMap lookup. A ConfigError is cached too, rethrown on every call and logged once
 * per isolate.
 */
export function loadEnv(raw: object): Env {
  let entry = parsed.get(raw);
  if (!entry) {
    try {
      entry = parseEnv(raw as Record<string, unknown>);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      entry = error;
    }
    parsed.set(raw, entry);
  }
  if (entry instanceof ConfigError) {
    if (!logged.has(entry.message)) {
      logged.add(entry.message);
      console.error(`[config] ${entry.message}`);
    }
    throw entry;
  }
  return entry;
}
