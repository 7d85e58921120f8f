// Conversa ao vivo's data: sessions, their paid minutes and the turns they add to the conversation. Used by the
// LiveConversation object (relay.server.ts) and the pages. Credits go through the credits module only.
import { sql } from "drizzle-orm";
import { CHAT_MODE_INFO, HISTORY_TURNS, systemPrompt, type ChatModeId, type ConversationFocusItem } from "~/features/conversation";
import { recordActivitySafely } from "~/server/activity.server";
import { refundCredits, spendCreditsThen, type AbandonedSpends } from "~/server/credits.server";
import { rowsOf, type DbOrTx } from "~/server/db.server";
import { LIVE_MODES } from "./config.server";

export const LIVE_MINUTE_REASON = "live_minute";
export const LIVE_MINUTE_REFUND_REASON = "refund:live_minute";
export type LiveConversationContext = {
  mode: ChatModeId;
  instructions: string;
  /** The due mistakes the conversation brings back (each learner turn's review is told them). */
  focus: ConversationFocusItem[];
  /** Nika's last turn so far (the review of the learner's next one reads it). */
  lastNika: string | null;
};

/**
 * What Nika needs to speak in this conversation, in one statement: its mode, its lesson, its focus and the last turns
 * (so a live session carries on from the text chat). Null when the conversation is not the learner's or has no live
 * mode.
 */
export async function loadLiveContext(db: DbOrTx, userId: string, conversationId: string): Promise<LiveConversationContext | null> {
  const [row] = rowsOf<{ mode: ChatModeId; lesson_title: string | null; lesson_description: string | null; focus: unknown; history: unknown }>(
    await db.execute(sql`
      select c.mode, c.focus, l.title as lesson_title, l.description as lesson_description,
        coalesce((select json_agg(json_build_object('role', m.role, 'text', m.text) order by m.created_at, m.id)
          from (select * from chat_messages where conversation_id = c.id and status = 'complete'
                order by created_at desc, id desc limit ${HISTORY_TURNS}) m), '[]'::json) as history
      from chat_conversations c left join lessons l on l.id = c.lesson_id
      where c.id = ${conversationId} and c.user_id = ${userId}`),
  );
  if (!row || !LIVE_MODES.includes(row.mode)) return null;
  const history = (typeof row.history === "string" ? JSON.parse(row.history) : row.history) as { role: "user" | "nika"; text: string }[];
  const lesson = row.lesson_title === null ? undefined : { title: row.lesson_title, description: row.lesson_description };
  const focus = ((typeof row.focus === "string" ? JSON.parse(row.focus) : row.focus) ?? []) as ConversationFocusItem[];
  const last = history.at(-1);
  return {
    mode: row.mode,
    instructions: liveInstructions(row.mode, history, lesson, focus),
    focus,
    lastNika: last?.role === "nika" ? last.text : null,
  };
}

/** The mode's own system prompt, told that this is a spoken conversation, with the turns so far. */
export function liveInstructions(
  mode: ChatModeId,
  history: { role: "user" | "nika"; text: string }[],
  lesson?: { title: string; description?: string | null },
  focus: readonly ConversationFocusItem[] = [],
): string {
  const spoken = `SPOKEN CONVERSATION: this is a live voice call. Answer in short spoken sentences (one to three), no lists, no markdown, no emoji. Speak ${CHAT_MODE_INFO[mode].language === "pt" ? "mostly Brazilian Portuguese, with the English you are teaching" : "mostly English, switching to Brazilian Portuguese only to explain"}. If the learner interrupts you, stop and listen.`;
  const turns = history.map((turn) => `${turn.role === "user" ? "Learner" : "Nika"}: ${turn.text}`).join("\n");
  return `${systemPrompt(mode, lesson, focus)}\n\n${spoken}${turns ? `\n\nTHE CONVERSATION SO FAR (carry on from it):\n${turns}` : ""}`;
}

/** Starts a session; any session of the learner still marked active (an object that died) is closed first. */
export async function beginLiveSession(db: DbOrTx, userId: string, conversationId: string, creditsPerMinute: number): Promise<string> {
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`
      with closed as (
        update live_sessions set status = 'ended', end_reason = coalesce(end_reason, 'abandoned'), ended_at = now()
        where user_id = ${userId} and status = 'active'
      )
      insert into live_sessions (user_id, conversation_id, credits_per_minute)
      values (${userId}, ${conversationId}, ${creditsPerMinute}) returning id`),
  );
  return row!.id;
}

export async function endLiveSession(db: DbOrTx, sessionId: string, reason: string): Promise<void> {
  await db.execute(sql`
    update live_sessions set status = 'ended', end_reason = ${reason}, ended_at = now() where id = ${sessionId} and status = 'active'`);
}

export type MinuteCharge = { ok: true; balance: number } | { ok: false; balance: number | null };

/**
 * Pays minute `minute` of the session: the spend and the minute's row in one statement (no credit without its minute,
 * no minute without its credit; the primary key makes a second payment of the same minute fail, spend included).
 * `pending` when the provider has yet to prove it serves this minute.
 */
export async function chargeMinute(
  db: DbOrTx,
  input: { sessionId: string; userId: string; minute: number; credits: number; status: "pending" | "used" },
): Promise<MinuteCharge> {
  const ref = crypto.randomUUID();
  const { spend } = await spendCreditsThen(
    db,
    input.userId,
    input.credits,
    LIVE_MINUTE_REASON,
    sql`minute_row as (
      insert into live_minutes (session_id, minute, ref, user_id, credits, status)
      select ${input.sessionId}, ${input.minute}, ${ref}, id, ${input.credits}, ${input.status} from spent returning minute
    ), outcome as (select minute from minute_row)`,
    undefined,
    ref,
  );
  return spend;
}

/** The provider served the minute: it is no longer the sweep's to refund. */
export async function confirmMinute(db: DbOrTx, sessionId: string, minute: number): Promise<void> {
  await db.execute(sql`update live_minutes set status = 'used' where session_id = ${sessionId} and minute = ${minute} and status = 'pending'`);
}

/** The provider failed in this minute: its credits go back, once (the ledger's unique refund ref). Returns the balance, or null. */
export async function refundMinute(db: DbOrTx, sessionId: string, minute: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{ user_id: string; credits: number; ref: string }>(
      await tx.execute(sql`
        update live_minutes set status = 'refunded'
        where session_id = ${sessionId} and minute = ${minute} and status <> 'refunded'
        returning user_id, credits, ref`),
    );
    if (!row) return null;
    return refundCredits(tx, row.user_id, Number(row.credits), LIVE_MINUTE_REFUND_REASON, row.ref);
  });
}

/**
 * A minute that is over and was served (`used`: neither still pending nor refunded) is the day's activity, once
 * (`session:minute` is its ref). Called when the minute ends, so a minute refunded for a provider failure never counts.
 */
export async function recordServedMinute(db: DbOrTx, input: { userId: string; sessionId: string; minute: number }): Promise<void> {
  const [served] = rowsOf(
    await db.execute(sql`
      select 1 from live_minutes where session_id = ${input.sessionId} and minute = ${input.minute} and status = 'used'`),
  );
  if (!served) return;
  await recordActivitySafely(db, { userId: input.userId, kind: "live_minute", ref: `${input.sessionId}:${input.minute}` });
}

/** A finished turn joins the conversation: the learner's words (as a voice message) or Nika's. */
export async function storeTurn(
  db: DbOrTx,
  input: { conversationId: string; speaker: "learner" | "nika"; text: string; at: Date },
): Promise<string | null> {
  const text = input.text.trim();
  if (!text) return null;
  const learner = input.speaker === "learner";
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with message as (
        insert into chat_messages (conversation_id, role, text, transcription, created_at)
        values (${input.conversationId}, ${learner ? "user" : "nika"}, ${text}, ${learner ? text : null}, ${input.at})
        returning id
      ), touched as (
        update chat_conversations set updated_at = now() where id = ${input.conversationId}
      )
      select id from message`),
  );
  return rows[0]?.id ?? null;
}

/** The part of Nika's reply the learner heard before speaking over her: the words in proportion to the audio played. */
export function heardPart(transcript: string, playedMs: number, totalMs: number): string {
  if (totalMs <= 0 || playedMs >= totalMs) return transcript;
  const words = transcript.trim().split(/\s+/).filter(Boolean);
  const kept = Math.floor((words.length * Math.max(0, playedMs)) / totalMs);
  return kept === 0 ? "" : `${words.slice(0, kept).join(" ")}…`;
}

/** A live minute is confirmed (or refunded) within seconds of its start; one still pending after this was abandoned. */
export const LIVE_MINUTE_ABANDONED_AFTER_MS = 3 * 60_000;

/**
 * A minute still `pending`: its object died before the provider proved it served the minute (a served minute is
 * `used` within seconds). Marked `refunded`, its credits (LIVE_CREDITS_PER_MINUTE when it began) go back.
 */
export const abandonedLiveMinutes: AbandonedSpends = {
  name: "liveMinutes",
  rows: (now) => sql`
    update live_minutes set status = 'refunded'
    where status = 'pending' and started_at < ${new Date(now.getTime() - LIVE_MINUTE_ABANDONED_AFTER_MS)}
    returning user_id, ref, credits`,
};
