// The Conta tab's data and profile writes. The page needs the session user (already loaded by the
// guard) plus ONE statement: a page of the credit history, whether an e-mail change link is usable
// and whether e-mail editing is blocked after a rate-limit refusal.
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { formatBRL } from "~/features/billing";
import { saoPauloDateTime } from "~/lib/dates";
import { jsonValue, rowsOf } from "~/server/db.server";

export const LEDGER_PAGE_SIZE = 10;
/** Same bucket and window as EMAIL_CHANGE_BLOCK (features/auth/email-change.server.ts). */
const BLOCK_BUCKET = "email_change_block";
const BLOCK_MS = 10 * 60_000;

export type LedgerEntry = {
  id: number;
  delta: number;
  balanceAfter: number;
  reason: string;
  createdAt: string;
  /** A purchase (positive) or its refund (negative), in centavos; null for every other entry. */
  amountCents: number | null;
  /** What the history shows, written by the server (see ledgerLabels). */
  createdAtLabel: string;
  amountLabel: string | null;
};

/**
 * "25/11/2026, 14:05" (São Paulo) and "R$ 24,90" / "−R$ 24,90": written out here because a browser's first Intl
 * formatter loads its ICU data inside the page's hydration, where it counts as blocking time (decision 0019).
 */
function ledgerLabels(createdAt: string, amountCents: number | null) {
  return {
    createdAtLabel: saoPauloDateTime(createdAt),
    amountLabel: amountCents === null ? null : `${amountCents < 0 ? "−" : ""}${formatBRL(Math.abs(amountCents))}`,
  };
}

export type AccountData = {
  ledger: LedgerEntry[];
  hasMoreLedger: boolean;
  /** A change link is usable (unused, not expired). */
  emailChangePending: boolean;
  /** Milliseconds left of the e-mail editing block (0 = not blocked). */
  emailBlockedMs: number;
};

type Row = { ledger: unknown; pending: unknown; blocked_at: unknown };

export async function loadAccount(context: AppLoadContext, userId: string, page: number, now = new Date()): Promise<AccountData> {
  const offset = (page - 1) * LEDGER_PAGE_SIZE;
  const result = await context.db.execute(sql`
    select
      (select coalesce(json_agg(l order by l.created_at desc, l.id desc), '[]'::json) from (
        select id, delta, balance_after, reason, created_at, amount_cents from credit_ledger
        where user_id = ${userId} order by created_at desc, id desc
        limit ${LEDGER_PAGE_SIZE + 1} offset ${offset}
      ) l) as ledger,
      exists (
        select 1 from auth_tokens where user_id = ${userId} and purpose = 'email_change' and used_at is null and expires_at > ${now.toISOString()}::timestamptz
      ) as pending,
      (select max(created_at) from rate_limit_attempts
        where bucket = ${BLOCK_BUCKET} and subject = ${userId} and created_at > ${new Date(now.getTime() - BLOCK_MS).toISOString()}::timestamptz) as blocked_at`);
  const row = rowsOf(result)[0] as Row;
  const raw = jsonValue<Record<string, unknown>[]>(row.ledger);
  const ledger = raw.slice(0, LEDGER_PAGE_SIZE).map((entry): LedgerEntry => {
    const createdAt = new Date(String(entry.created_at)).toISOString();
    const amountCents = entry.amount_cents === null || entry.amount_cents === undefined ? null : Number(entry.amount_cents);
    return {
      id: Number(entry.id),
      delta: Number(entry.delta),
      balanceAfter: Number(entry.balance_after),
      reason: String(entry.reason),
      createdAt,
      amountCents,
      ...ledgerLabels(createdAt, amountCents),
    };
  });
  const blockedAt = row.blocked_at ? new Date(row.blocked_at as string | Date).getTime() : null;
  return {
    ledger,
    hasMoreLedger: raw.length > LEDGER_PAGE_SIZE,
    emailChangePending: row.pending === true || row.pending === "t",
    emailBlockedMs: blockedAt === null ? 0 : Math.max(0, blockedAt + BLOCK_MS - now.getTime()),
  };
}

/**
 * Sets the name or the WhatsApp number and, when it really changed, records a profile update (the
 * admin analytics count them) — in one statement. True when the value changed.
 */
export async function updateProfileField(context: AppLoadContext, userId: string, field: "name" | "phone", value: string): Promise<boolean> {
  const column = field === "name" ? sql`name` : sql`phone_number`;
  const result = await context.db.execute(sql`
    with changed as (
      update users set ${column} = ${value}, updated_at = now()
      where id = ${userId} and ${column} is distinct from ${value}
      returning id
    ), recorded as (
      insert into profile_updates (user_id, field) select id, ${field} from changed
    )
    select count(*)::int as changed from changed`);
  return Number(rowsOf(result)[0]?.changed ?? 0) === 1;
}
