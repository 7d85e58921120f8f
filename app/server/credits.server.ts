// Credits: a balance on users.monthly_credits plus an append-only ledger. Every change is one SQL
// statement (balance update and ledger insert in the same CTE), so concurrent requests can never
// overspend or lose an update. Never read-modify-write in JS.
import { sql, type SQL } from "drizzle-orm";
import { saoPauloParts } from "~/lib/dates";
import { jsonValue, rowsOf, type DbOrTx } from "./db.server";
import type { Env } from "./env";

export const DEFAULT_MONTHLY_CREDITS = 50;

export function monthlyAllowance(env: Pick<Env, "MONTHLY_CREDITS">): number {
  const value = Number.parseInt(env.MONTHLY_CREDITS ?? "", 10);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_MONTHLY_CREDITS;
}

let lastPeriod = { minute: Number.NaN, period: "" };

/** The credit period (YYYY-MM) that `now` falls in, on the São Paulo calendar. */
export function creditPeriod(now: Date): string {
  // Time zone offsets are whole minutes, so a month never turns within one UTC minute: the answer for this minute
  // is kept (formatting costs far more than the lookup, and every request asks).
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute === lastPeriod.minute) return lastPeriod.period;
  const { year, month } = saoPauloParts(now);
  lastPeriod = { minute, period: `${year}-${String(month).padStart(2, "0")}` };
  return lastPeriod.period;
}

type Row = Record<string, unknown>;

/**
 * The SET clause that keeps bought credits within the balance when `taken` credits leave it: the
 * monthly part is spent first, so `purchased_credits` only falls once the balance drops below it.
 * (In an UPDATE, the right-hand side reads the row's old values.)
 */
const KEEP_PURCHASED_WITHIN = (taken: number) => sql`purchased_credits = least(purchased_credits, monthly_credits - ${taken})`;

export type SpendResult = { ok: true; balance: number } | { ok: false; balance: number | null };

/** Takes `amount` credits if — and only if — the balance covers them. */
export async function spendCredits(db: DbOrTx, userId: string, amount: number, reason: string): Promise<SpendResult> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error("amount must be a positive integer");
  const result = await db.execute(sql`
    with spent as (
      update users set monthly_credits = monthly_credits - ${amount}, ${KEEP_PURCHASED_WITHIN(amount)}, updated_at = now()
      where id = ${userId} and monthly_credits >= ${amount}
      returning id, monthly_credits
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason)
      select id, ${-amount}, monthly_credits, ${reason} from spent
    )
    select monthly_credits as balance from spent`);
  const row = rowsOf(result)[0];
  if (row) return { ok: true, balance: Number(row.balance) };
  return { ok: false, balance: await getBalance(db, userId) };
}

/**
 * spendCredits in the SAME statement as the caller's own read, for hot paths where a round trip
 * counts (Nika's first token). `gate` is a select of at most one row with a boolean column `allowed`:
 * the credits are taken only if that row exists and `allowed` is true. Returns the gate's row (or
 * null) and the spend result (null when the gate did not allow it).
 */
export async function spendCreditsGated(
  db: DbOrTx,
  userId: string,
  amount: number,
  reason: string,
  gate: SQL,
  ref: string | null = null,
): Promise<{ row: Row | null; spend: SpendResult | null }> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error("amount must be a positive integer");
  const result = await db.execute(sql`
    with gate as (${gate}), spent as (
      update users set monthly_credits = monthly_credits - ${amount}, ${KEEP_PURCHASED_WITHIN(amount)}, updated_at = now()
      where id = ${userId} and monthly_credits >= ${amount} and exists (select 1 from gate where gate.allowed)
      returning id, monthly_credits
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, ref)
      select id, ${-amount}, monthly_credits, ${reason}, ${ref}::uuid from spent
    )
    select gate.*,
      (select monthly_credits from spent) as spent_balance,
      (select monthly_credits from users where id = ${userId}) as balance_before
    from gate`);
  const row = rowsOf(result)[0];
  if (!row) return { row: null, spend: null };
  const { spent_balance: spentBalance, balance_before: before, ...gateRow } = row;
  if (!gateRow.allowed) return { row: gateRow, spend: null };
  const spend: SpendResult =
    spentBalance === null || spentBalance === undefined
      ? { ok: false, balance: before === null || before === undefined ? null : Number(before) }
      : { ok: true, balance: Number(spentBalance) };
  return { row: gateRow, spend };
}

/**
 * spendCredits and, in the SAME statement, what the credits pay for. `then` is one or more CTEs
 * (`a as (…), b as (…)`, Postgres allows data-modifying ones only at the top level) that read the CTE
 * `spent` (columns id, monthly_credits) and define `outcome`, a query of at most one row. They write
 * only when the credits were taken: there is never a game without its credit nor a credit without its
 * game. `alsoSet` adds assignments to the users update (e.g. a usage counter).
 */
export async function spendCreditsThen(
  db: DbOrTx,
  userId: string,
  amount: number,
  reason: string,
  then: SQL,
  alsoSet?: SQL,
  ref: string | null = null,
): Promise<{ spend: SpendResult; row: Row | null }> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error("amount must be a positive integer");
  const result = await db.execute(sql`
    with spent as (
      update users set monthly_credits = monthly_credits - ${amount}, ${KEEP_PURCHASED_WITHIN(amount)}, updated_at = now()${alsoSet ? sql`, ${alsoSet}` : sql``}
      where id = ${userId} and monthly_credits >= ${amount}
      returning id, monthly_credits
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, ref)
      select id, ${-amount}, monthly_credits, ${reason}, ${ref}::uuid from spent
    ), ${then}
    select (select monthly_credits from spent) as spent_balance,
      (select monthly_credits from users where id = ${userId}) as balance_before,
      (select to_jsonb(outcome) from outcome limit 1) as outcome`);
  const row = rowsOf(result)[0];
  const spentBalance = row?.spent_balance;
  if (spentBalance === null || spentBalance === undefined) {
    const before = row?.balance_before;
    return { spend: { ok: false, balance: before === null || before === undefined ? null : Number(before) }, row: null };
  }
  const outcome = row!.outcome;
  return {
    spend: { ok: true, balance: Number(spentBalance) },
    row: jsonValue<Row | null>(outcome),
  };
}

/** Gives credits back (e.g. the AI provider failed after the spend); `ref` is the spend's, when it has one. */
export async function refundCredits(db: DbOrTx, userId: string, amount: number, reason: string, ref: string | null = null): Promise<number> {
  const result = await db.execute(sql`
    with refunded as (
      update users set monthly_credits = monthly_credits + ${amount}, updated_at = now()
      where id = ${userId} returning id, monthly_credits
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, ref)
      select id, ${amount}, monthly_credits, ${reason}, ${ref}::uuid from refunded
    )
    select monthly_credits as balance from refunded`);
  return Number(rowsOf(result)[0]?.balance ?? 0);
}

export async function getBalance(db: DbOrTx, userId: string): Promise<number | null> {
  const result = await db.execute(sql`select monthly_credits from users where id = ${userId}`);
  const row = rowsOf(result)[0];
  return row ? Number(row.monthly_credits) : null;
}

/**
 * Resets the balance to the monthly allowance, plus the bought credits still unspent (they do not
 * expire), when the user was last renewed in an earlier São Paulo month. Idempotent: a second call in the same month changes nothing. Returns the new balance, or
 * null when no renewal was due.
 */
export async function renewCreditsIfDue(db: DbOrTx, userId: string, allowance: number, now: Date) {
  const period = creditPeriod(now);
  const result = await db.execute(sql`
    with old as (select id, monthly_credits from users where id = ${userId} for update),
    renewed as (
      update users u set monthly_credits = ${allowance} + u.purchased_credits, credits_period = ${period}, updated_at = now()
      from old where u.id = old.id and u.credits_period is distinct from ${period}
      returning u.id, u.monthly_credits, old.monthly_credits as previous
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason)
      select id, monthly_credits - previous, monthly_credits, ${"monthly_renewal:" + period} from renewed
    )
    select monthly_credits as balance from renewed`);
  const row = rowsOf(result)[0];
  return row ? Number(row.balance) : null;
}

/** A spend whose thing was not stored this long after it is taken as abandoned (far beyond any request's timeouts). */
export const ABANDONED_AFTER_MS = 5 * 60_000;
/**
 * How far back the sweep looks for chat spends (it runs every 5 minutes): older ones are settled. It also keeps a
 * message deleted long after it was paid for from ever counting as never stored (nothing deletes messages today but
 * their user, whose ledger goes with them).
 */
export const ABANDONED_LOOKBACK_MS = 24 * 60 * 60_000;
export const ABANDONED_REFUND_REASON = "refund:abandoned";
/** A live minute is confirmed (or refunded) within seconds of its start; one still pending after this was abandoned. */
export const LIVE_MINUTE_ABANDONED_AFTER_MS = 3 * 60_000;
/** The ledger reason of a chat message's credit (its ref is the learner message's id). */
export const CHAT_MESSAGE_CREDIT_REASON = "chat_message";

/**
 * The sweep (cron, every 5 minutes): gives back the credits of purchases a dying request left half done — the
 * database or the worker went away between the spend and the statement that stores what it paid for, so no refund
 * could be written either. Two kinds, each refunded once (the unique index on refund refs) with its ref:
 * - a chat message's credit (ledger `chat_message` with the message id as ref) whose message was never stored;
 * - a pronunciation attempt still `scoring`: marked `failed`, its credit back (as `failAttempt` does);
 * - a live conversation's minute still `pending`: its object died before the provider proved it served the minute
 *   (a served minute is `used` within seconds), so it is marked `refunded` and its credits go back.
 * Each kind is one statement. Returns how many of each were refunded.
 */
export async function refundAbandonedSpends(db: DbOrTx, now: Date): Promise<{ chatMessages: number; attempts: number; liveMinutes: number }> {
  const cutoff = new Date(now.getTime() - ABANDONED_AFTER_MS);
  const since = new Date(now.getTime() - ABANDONED_LOOKBACK_MS);
  // Reads the CTE `abandoned` (user_id, ref). Per user, the balance goes up by the user's count; each ledger row
  // carries the balance after its own +1.
  const refundEachAbandoned = sql`
    per_user as (select user_id, count(*)::int as n from abandoned group by user_id),
    refunded as (
      update users u set monthly_credits = u.monthly_credits + p.n, updated_at = now()
      from per_user p where u.id = p.user_id returning u.id, u.monthly_credits, p.n
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, ref)
      select a.user_id, 1, r.monthly_credits - r.n + row_number() over (partition by a.user_id order by a.ref), ${ABANDONED_REFUND_REASON}, a.ref
      from abandoned a join refunded r on r.id = a.user_id
    )
    select coalesce(sum(n), 0)::int as refunded from refunded`;
  const chat = await db.execute(sql`
    with abandoned as (
      select s.user_id, s.ref from credit_ledger s
      where s.ref is not null and s.delta < 0 and s.reason = ${CHAT_MESSAGE_CREDIT_REASON} and s.created_at < ${cutoff}
        and s.created_at >= ${since} and not exists (select 1 from chat_messages m where m.id = s.ref)
        and not exists (select 1 from credit_ledger r where r.ref = s.ref and r.delta > 0)
    ), ${refundEachAbandoned}`);
  const attempts = await db.execute(sql`
    with abandoned as (
      update pronunciation_attempts set status = 'failed'
      where status = 'scoring' and created_at < ${cutoff}
      returning user_id, id as ref
    ), ${refundEachAbandoned}`);
  // A minute costs `credits` (LIVE_CREDITS_PER_MINUTE when it began), not one: the same shape, summed by amount.
  const liveMinutes = await db.execute(sql`
    with abandoned as (
      update live_minutes set status = 'refunded'
      where status = 'pending' and started_at < ${new Date(now.getTime() - LIVE_MINUTE_ABANDONED_AFTER_MS)}
      returning user_id, ref, credits
    ), per_user as (select user_id, sum(credits)::int as n from abandoned group by user_id),
    refunded as (
      update users u set monthly_credits = u.monthly_credits + p.n, updated_at = now()
      from per_user p where u.id = p.user_id returning u.id, u.monthly_credits, p.n
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, ref)
      select a.user_id, a.credits,
        r.monthly_credits - r.n + sum(a.credits) over (partition by a.user_id order by a.ref), ${ABANDONED_REFUND_REASON}, a.ref
      from abandoned a join refunded r on r.id = a.user_id
    )
    select count(*)::int as refunded from abandoned`);
  return {
    chatMessages: Number(rowsOf(chat)[0]?.refunded ?? 0),
    attempts: Number(rowsOf(attempts)[0]?.refunded ?? 0),
    liveMinutes: Number(rowsOf(liveMinutes)[0]?.refunded ?? 0),
  };
}

/** The cron trigger's job: renew every user not yet renewed this month. Returns how many were. */
export async function renewAllCredits(db: DbOrTx, allowance: number, now: Date): Promise<number> {
  const period = creditPeriod(now);
  const result = await db.execute(sql`
    with old as (
      select id, monthly_credits from users where credits_period is distinct from ${period} for update
    ), renewed as (
      update users u set monthly_credits = ${allowance} + u.purchased_credits, credits_period = ${period}, updated_at = now()
      from old where u.id = old.id
      returning u.id, u.monthly_credits, old.monthly_credits as previous
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason)
      select id, monthly_credits - previous, monthly_credits, ${"monthly_renewal:" + period} from renewed
    )
    select count(*)::int as renewed from renewed`);
  return Number(rowsOf(result)[0]?.renewed ?? 0);
}

export type AdjustResult = { ok: true; before: number; balance: number } | { ok: false; balance: number | null };

/**
 * An admin's grant (positive `delta`) or removal (negative): one statement, the balance never below
 * zero (a removal larger than the balance is refused, nothing written). `reason` goes to the ledger.
 */
export async function adjustCredits(db: DbOrTx, userId: string, delta: number, reason: string): Promise<AdjustResult> {
  if (!Number.isInteger(delta) || delta === 0) throw new Error("delta must be a non-zero integer");
  const result = await db.execute(sql`
    with adjusted as (
      update users set monthly_credits = monthly_credits + ${delta}, ${KEEP_PURCHASED_WITHIN(-delta)}, updated_at = now()
      where id = ${userId} and monthly_credits + ${delta} >= 0
      returning id, monthly_credits
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason)
      select id, ${delta}, monthly_credits, ${reason} from adjusted
    )
    select (select monthly_credits from adjusted) as balance,
      (select monthly_credits from users where id = ${userId}) as before`);
  const row = rowsOf(result)[0];
  if (row?.balance === null || row?.balance === undefined) return { ok: false, balance: row?.before == null ? null : Number(row.before) };
  return { ok: true, before: Number(row.before), balance: Number(row.balance) };
}

// ——— bought credits (Stripe Checkout, features/billing) ———

/** A paid Checkout Session as the webhook (or the return page) knows it; credits and price are ours. */
export type PaidPurchase = {
  checkoutSessionId: string;
  userId: string;
  packId: string;
  credits: number;
  amountCents: number;
  currency: string;
  paymentIntentId: string | null;
};

/**
 * Adds a paid purchase's credits — exactly once per Checkout Session, however many times and in whatever
 * order its events arrive: the purchase row (unique on the session id) moves to `paid` in the same
 * statement as the balance and the ledger, and only from a state that was not yet paid. Concurrent
 * deliveries queue on the row's lock and then find it paid. The credits and price of an existing row
 * (written when the learner chose the pack) win over the ones passed in. Returns the new balance, or
 * null when nothing was added (already paid or refunded, or the user is gone).
 */
export async function creditPaidPurchase(db: DbOrTx, purchase: PaidPurchase): Promise<number | null> {
  const { checkoutSessionId, userId, packId, credits, amountCents, currency, paymentIntentId } = purchase;
  const result = await db.execute(sql`
    with paid as (
      insert into credit_purchases (user_id, checkout_session_id, pack_id, credits, amount_cents, currency, status, payment_intent_id, paid_at)
      values (${userId}, ${checkoutSessionId}, ${packId}, ${credits}, ${amountCents}, ${currency}, 'paid', ${paymentIntentId}, now())
      on conflict (checkout_session_id) do update
        set status = 'paid', payment_intent_id = coalesce(excluded.payment_intent_id, credit_purchases.payment_intent_id),
            paid_at = now(), updated_at = now()
        where credit_purchases.status in ('open', 'pending', 'failed', 'expired')
      returning id, user_id, credits, amount_cents, currency
    ), credited as (
      update users u set monthly_credits = u.monthly_credits + paid.credits, purchased_credits = u.purchased_credits + paid.credits,
        updated_at = now()
      from paid where u.id = paid.user_id
      returning u.id, u.monthly_credits, paid.id as purchase_id, paid.credits, paid.amount_cents, paid.currency
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, amount_cents, currency)
      select id, credits, monthly_credits, 'purchase:' || purchase_id, amount_cents, currency from credited
    )
    select monthly_credits as balance from credited`);
  const row = rowsOf(result)[0];
  return row ? Number(row.balance) : null;
}

/**
 * Takes back the credits of a refunded payment, once per refunded amount: `amountRefunded` is the
 * charge's running total (Stripe sends it with every `charge.refunded`), so a repeated event takes
 * nothing more, and a partial refund takes its share (rounded down). The balance never goes below
 * zero — credits already spent stay spent. Returns the credits taken (0 when nothing was due) and whose.
 */
export async function takeBackRefundedPurchase(
  db: DbOrTx,
  refund: { paymentIntentId: string; amountCharged: number; amountRefunded: number },
): Promise<{ taken: number; userId: string | null }> {
  const { paymentIntentId, amountCharged, amountRefunded } = refund;
  if (!(amountCharged > 0) || !(amountRefunded > 0)) return { taken: 0, userId: null };
  const result = await db.execute(sql`
    with target as (
      select id, user_id, credits, refunded_credits, amount_cents, currency,
        least(credits, floor(credits * least(${amountRefunded}::numeric, ${amountCharged}::numeric) / ${amountCharged}::numeric))::int as due
      from credit_purchases
      where payment_intent_id = ${paymentIntentId} and status in ('paid', 'refunded')
      for update
    ), owed as (
      select *, due - refunded_credits as take from target where due > refunded_credits
    ), marked as (
      update credit_purchases p set refunded_credits = owed.due, updated_at = now(),
        status = case when owed.due >= owed.credits then 'refunded' else p.status end
      from owed where p.id = owed.id
      returning p.id
    ), taken as (
      update users u set monthly_credits = greatest(0, u.monthly_credits - owed.take),
        purchased_credits = greatest(0, u.purchased_credits - owed.take), updated_at = now()
      from owed where u.id = owed.user_id
      returning u.id, u.monthly_credits, owed.id as purchase_id, owed.take, owed.credits, owed.amount_cents, owed.currency,
        (select monthly_credits from users where id = owed.user_id) as before
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, amount_cents, currency)
      select id, monthly_credits - before, monthly_credits, 'purchase_refund:' || purchase_id,
        -round(amount_cents::numeric * take / credits)::int, currency
      from taken
    )
    select coalesce((select take from taken), 0) as taken, (select id from taken) as user_id, (select count(*) from marked) as marked`);
  const row = rowsOf(result)[0];
  return { taken: Number(row?.taken ?? 0), userId: row?.user_id ? String(row.user_id) : null };
}
