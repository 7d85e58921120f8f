import type { LessonChannel } from "./lesson-channel";

/** Worker bindings and variables (wrangler.toml [vars], secrets, .dev.vars). */
export interface Env {
  APP_ENV: "production" | "development" | "test";
  /** Postgres URL. Neon in production; the embedded PGlite (via DB_WS_PROXY) locally. */
  DATABASE_URL: string;
  /** host:port of the local WebSocket→TCP bridge. Unset in production (Neon's own proxy). */
  DB_WS_PROXY?: string;
  SESSION_SECRET: string;
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
  /** One Durable Object per lesson pushing "new comment" over WebSockets. Absent in unit tests and vite dev. */
  LESSON_CHANNELS?: DurableObjectNamespace<LessonChannel>;
  /** Any OpenAI-compatible API (OpenAI, Groq, OpenRouter, a local server), e.g. https://api.openai.com/v1. Takes precedence. */
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_CHAT_MODEL?: string;
  OPENAI_TRANSCRIBE_MODEL?: string;
  OPENAI_TTS_MODEL?: string;
  /** Workers AI binding; used when OPENAI_BASE_URL is unset. Never available offline. */
  AI?: Ai;
  /** Spec §7 automation webhooks ({product}-nika and {product}-user-audio), for existing deployments. */
  NIKA_CHAT_WEBHOOK_URL?: string;
  NIKA_USER_AUDIO_WEBHOOK_URL?: string;
}

export const isProduction = (env: Pick<Env, "APP_ENV">) => env.APP_ENV === "production";
