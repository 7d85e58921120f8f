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
export const ABANDONED_REFUND_REASON = "refund:abandoned";
/** The ledger reason of a chat message's credit (its ref is the learner message's id). */
export const CHAT_MESSAGE_CREDIT_REASON = "chat_message";

/**
 * Gives back these rows: `rows` is SQL for the spends to refund, with the columns user_id, ref and credits — a
 * SELECT, or an UPDATE … RETURNING that marks them settled in the same statement. Each row's credits go back to its
 * user, with one ledger row carrying its ref and the balance after it. One statement; returns how many rows were
 * refunded and each user's balance after.
 */
export async function refundRows(db: DbOrTx, rows: SQL, reason: string): Promise<{ refunded: number; balances: Map<string, number> }> {
  const result = await db.execute(sql`
    with given as (${rows}),
    per_user as (select user_id, sum(credits)::int as n from given group by user_id),
    refunded as (
      update users u set monthly_credits = u.monthly_credits + p.n, updated_at = now()
      from per_user p where u.id = p.user_id returning u.id, u.monthly_credits, p.n
    ), ledger as (
      insert into credit_ledger (user_id, delta, balance_after, reason, ref)
      select g.user_id, g.credits,
        r.monthly_credits - r.n + sum(g.credits) over (partition by g.user_id order by g.ref), ${reason}, g.ref
      from given g join refunded r on r.id = g.user_id
    )
    select (select count(*)::int from given) as refunded,
      (select json_agg(json_build_array(id, monthly_credits)) from refunded) as balances`);
  const row = rowsOf(result)[0];
  const balances = new Map((jsonValue<[string, number][] | null>(row?.balances) ?? []).map(([id, balance]) => [id, Number(balance)]));
  return { refunded: Number(row?.refunded ?? 0), balances };
}

/**
 * A feature's spends that a dying request left half done — the database or the worker went away between the spend
 * and the statement that stores what it paid for, so no refund could be written either. `rows(now)` is SQL for
 * refundRows (user_id, ref, credits) that also settles them, so each is refunded once.
 */
export type AbandonedSpends = { name: string; rows: (now: Date) => SQL };

/**
 * The sweep (cron, every 5 minutes): each feature's abandoned spends given back, one statement per feature.
 * Returns how many of each feature's were refunded, by name.
 */
export async function refundAbandonedSpends(db: DbOrTx, now: Date, features: readonly AbandonedSpends[]): Promise<Record<string, number>> {
  const refunded: Record<string, number> = {};
  for (const feature of features) {
    refunded[feature.name] = (await refundRows(db, feature.rows(now), ABANDONED_REFUND_REASON)).refunded;
  }
  return refunded;
}

/** The credits of a new account: the month's allowance, with its ledger row (in the account's own transaction). */
export async function grantSignupCredits(db: DbOrTx, userId: string, allowance: number): Promise<void> {
  await db.execute(
    sql`insert into credit_ledger (user_id, delta, balance_after, reason) values (${userId}, ${allowance}, ${allowance}, 'signup')`,
  );
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
