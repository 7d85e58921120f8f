// How every `wrangler dev` of this project is started (the app by scripts/start.mjs, the benches' own workers), so a
// bench compares like with like.

/**
 * The environment: wrangler dev bundles with process.env.NODE_ENV = "development" unless told otherwise, which
 * selects React's development server renderer (prop validation, jsxDEV): the production build must run as production.
 */
export function wranglerDevEnv() {
  return {
    ...process.env,
    NODE_ENV: "production",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_LOG_SANITIZE: "true",
  };
}

/** Arguments besides the port and config; "warn" unless told otherwise: at "info" wrangler logs every request from its Node process, which costs CPU on the cores a bench measures. */
export function wranglerDevArgs(logLevel = "warn") {
  return ["--show-interactive-dev-session=false", "--log-level", logLevel];
}
