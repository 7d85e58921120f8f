// `cloudflare:workers` is workerd's own module; Node (vitest) has none. Tests that load the whole server build in
// Node (database-unavailable.test.ts) meet the Durable Object classes it re-exports for the worker entry, which
// only need their base class to exist: they never run here (their tests run in workerd: live.test.ts, realtime.test.ts).
export class DurableObject<Env = unknown> {
  constructor(
    readonly ctx: unknown,
    readonly env: Env,
  ) {}
}
