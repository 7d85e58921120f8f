// The conversation core that the text chat and Conversa ao vivo share: a learner's conversations (creating one,
// finding it with its lesson, claiming its greeting), the errors both answer with, and the mode gate.
import { and, asc, eq, isNull, lt, notExists, or, sql, type SQL } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { lessons } from "~/features/courses";
import { isUuid } from "~/lib/ids";
import { sessionStillValid, type AccessRefusal } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { users } from "~/server/schema";
import { CHAT_MODE_INFO, isChatMode, type ChatModeId } from "./modes";
import type { LessonContext } from "./prompts";
import { chatConversations, chatMessages, type ChatConversation, type ChatMessageRow, type ConversationFocusItem } from "./tables";

export type ChatErrorCode = "invalid_text" | "invalid_audio" | "invalid_mode" | "not_found" | "feature_disabled" | "voice_unavailable";

/** A chat message whose spend statement re-checks the session (auth.server's sessionUserForStatement). */
export type SessionRecheck = { sessionId: string; recheck: () => Promise<{ refusal?: AccessRefusal }> };

export const AUTH_ERROR_TITLE = "Erro de Autenticação";

/** The session was refused when the spend statement re-checked it: the guard's own refusal (401/403). */
export class SessionRefusedError extends Error {
  constructor(readonly refusal: AccessRefusal) {
    super(refusal.message);
    this.name = "SessionRefusedError";
  }
}

/** A request the caller must fix (400), a conversation/lesson that is not the user's (404), a flag off (403). */
export class ChatError extends Error {
  readonly code: ChatErrorCode;
  readonly status: 400 | 403 | 404 | 413 | 415 | 503;
  constructor(code: ChatErrorCode, status: ChatError["status"], message: string) {
    super(message);
    this.name = "ChatError";
    this.code = code;
    this.status = status;
  }
}

export type UserRef = { id: string };

/** Throws a 403 ChatError when the mode's flag is off (lesson practice is never gated). */
export async function assertModeEnabled(context: AppLoadContext, mode: ChatModeId): Promise<void> {
  const flag = CHAT_MODE_INFO[mode].flag;
  if (!flag) return;
  const flags = await getFlags(context);
  if (!flags[flag]) throw new ChatError("feature_disabled", 403, "Recurso Temporariamente Indisponível");
}

export type OwnedConversation = Omit<ChatConversation, "greetingClaimedAt"> & { lesson: LessonContext | null };
/**
 * A conversation as the learner's requests find it: its lesson, whether it has any message yet (`started`) and,
 * when the finder claimed its greeting, the claim's time as Postgres wrote it (`greetingClaim`, else null).
 */
export type FoundConversation = OwnedConversation & { started: boolean; greetingClaim: string | null };

/** How long a greeting's claim holds: past the chat's 30 s and the voice's 60 s, so no greeting runs twice at once. */
export const GREETING_CLAIM_TTL_SECONDS = 120;

/**
 * The learner's conversation, its lesson and whether it has begun, in one statement; 404 ChatError when it is not
 * theirs. With `session` (a learner this isolate already knows) the same statement re-checks the session, as the
 * chat's spend does: when it no longer holds, the session is read again and refused (SessionRefusedError) or found anew.
 * With `claimGreeting` the same statement also takes the greeting of a conversation not yet started, unless another
 * request holds it (an UPDATE in a CTE: of two requests at once, Postgres lets one set the claim).
 */
export async function findOwnedConversation(
  context: AppLoadContext,
  user: UserRef,
  conversationId: string,
  options: { session?: SessionRecheck; claimGreeting?: boolean } = {},
): Promise<FoundConversation> {
  if (!isUuid(conversationId)) throw new ChatError("not_found", 404, "Conversa não encontrada");
  const { session, claimGreeting = false } = options;
  const sessionOk = session ? sessionStillValid(session.sessionId, user.id) : sql`true`;
  const thisConversation = and(eq(chatConversations.id, conversationId), eq(chatConversations.userId, user.id));
  const claim = claimGreeting ? greetingClaim(context, thisConversation, conversationId, sessionOk) : null;
  const [row] = await (claim ? context.db.with(claim) : context.db)
    .select({
      conversation: chatConversations,
      lessonTitle: lessons.title,
      lessonDescription: lessons.description,
      started: sql<boolean>`exists (select 1 from ${chatMessages} where ${chatMessages.conversationId} = ${chatConversations.id})`,
      sessionOk: sql<boolean>`${sessionOk}`,
      greetingClaim: claim ? sql<string | null>`(select claimed_at from ${claim})` : sql<string | null>`null`,
    })
    .from(chatConversations)
    .leftJoin(lessons, eq(lessons.id, chatConversations.lessonId))
    .where(thisConversation)
    .limit(1);
  if (row && session && !row.sessionOk) {
    const { refusal } = await session.recheck();
    if (refusal) throw new SessionRefusedError(refusal);
    return findOwnedConversation(context, user, conversationId, { claimGreeting });
  }
  if (!row) throw new ChatError("not_found", 404, "Conversa não encontrada");
  const lesson = row.lessonTitle === null ? null : { title: row.lessonTitle, description: row.lessonDescription };
  const { greetingClaimedAt: _claimedBefore, ...conversation } = row.conversation;
  return { ...conversation, lesson, started: row.started, greetingClaim: row.greetingClaim };
}

/**
 * SQL, a CTE that claims the greeting of a conversation with no message yet (its claim's time as text, or no row):
 * of two requests at once, the second waits for the first's UPDATE and then no longer matches.
 */
function greetingClaim(context: AppLoadContext, thisConversation: SQL | undefined, conversationId: string, sessionOk: SQL) {
  const free = or(
    isNull(chatConversations.greetingClaimedAt),
    lt(chatConversations.greetingClaimedAt, sql`now() - make_interval(secs => ${GREETING_CLAIM_TTL_SECONDS})`),
  );
  const notStarted = notExists(
    context.db
      .select({ one: sql`1` })
      .from(chatMessages)
      .where(eq(chatMessages.conversationId, conversationId)),
  );
  return context.db.$with("greeting_claim").as(
    context.db
      .update(chatConversations)
      .set({ greetingClaimedAt: sql`now()` })
      .where(and(thisConversation, free, notStarted, sessionOk))
      .returning({ claimedAt: sql<string>`${chatConversations.greetingClaimedAt}::text`.as("claimed_at") }),
  );
}

/**
 * Creates a conversation and counts it in users.conversations_started (atomic `+ 1`). `focus`: the learner's due
 * mistakes it brings back, chosen by the caller (the core knows nothing of "Meu caderno"); kept for every turn.
 */
export async function startConversation(
  context: AppLoadContext,
  user: UserRef,
  input: { mode: string; lessonId?: string | null; focus?: ConversationFocusItem[] },
): Promise<ChatConversation> {
  if (!isChatMode(input.mode)) throw new ChatError("invalid_mode", 400, "Modo de conversa inválido");
  const mode = input.mode;
  await assertModeEnabled(context, mode);
  let lessonId: string | null = null;
  if (mode === "lesson") {
    if (!isUuid(input.lessonId)) throw new ChatError("not_found", 404, "Aula não encontrada");
    const [lesson] = await context.db.select({ id: lessons.id }).from(lessons).where(eq(lessons.id, input.lessonId)).limit(1);
    if (!lesson) throw new ChatError("not_found", 404, "Aula não encontrada");
    lessonId = lesson.id;
  }
  return context.db.transaction(async (tx) => {
    const [conversation] = await tx
      .insert(chatConversations)
      .values({ userId: user.id, mode, lessonId, focus: input.focus ?? [] })
      .returning();
    await tx
      .update(users)
      .set({ conversationsStarted: sql`${users.conversationsStarted} + 1`, updatedAt: sql`now()` })
      .where(eq(users.id, user.id));
    return conversation!;
  });
}

/** The conversation and its messages, oldest first; 404 ChatError when it is not the user's. */
export async function loadConversation(
  context: AppLoadContext,
  user: UserRef,
  conversationId: string,
): Promise<{ conversation: FoundConversation; messages: ChatMessageRow[] }> {
  const conversation = await findOwnedConversation(context, user, conversationId);
  const messages = await context.db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversation.id))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
  return { conversation, messages };
}
