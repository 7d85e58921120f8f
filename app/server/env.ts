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
}

export const isProduction = (env: Pick<Env, "APP_ENV">) => env.APP_ENV === "production";
