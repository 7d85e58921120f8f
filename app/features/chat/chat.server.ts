// Chat with Nika, the server side: conversations and messages in Postgres, 1 credit per
// learner message taken atomically BEFORE the provider is called and refunded if it fails, the reply
// streamed token by token from whichever provider is configured (app/server/ai), and the English
// level test's result read from a structured marker in Nika's reply.
//
// The core of `sendMessage` and `greet` is an async generator that yields reply tokens and *returns*
// the outcome; `sendMessage`/`greet` drive it with an `onToken` callback (no-JS form posts, tests),
// `toEventStream` turns it into a `text/event-stream` Response (resource routes with JS).
import { and, asc, eq, isNull, lt, notExists, or, sql, type SQL } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { validateAudioBlob } from "~/lib/audio/validate";
import { errorMessage } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { recordActivitySafely } from "~/server/activity.server";
import { getAiProviders, NIKA_UNAVAILABLE } from "~/server/ai/index.server";
import { ProviderError, toProviderError, type AiProviders, type ProviderErrorKind, type ProviderOptions } from "~/server/ai/types";
import { forgetUserSessions, sessionStillValid, type AccessRefusal } from "~/server/auth.server";
import { CHAT_MESSAGE_CREDIT_REASON, refundCredits, spendCreditsGated, type SpendResult } from "~/server/credits.server";
import { DATABASE_UNAVAILABLE, DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable, jsonValue } from "~/server/db.server";
import { getFlags } from "~/server/flags.server";
import { appConfig, chatConversations, chatMessages, lessons, users, type ChatConversation, type ChatMessageRow } from "~/server/schema";
import { CHAT_AUDIO_FOLDER, mediaBucket, putObject } from "~/server/storage.server";
import { CHAT_MODE_INFO, isChatMode, type ChatModeId } from "./modes";
import { buildChatMessages, HISTORY_TURNS, parseLevelMarker, type CefrLevel, type HistoryTurn, type LessonContext } from "./prompts";

export const MESSAGE_MAX_CHARS = 5000;
export const CREDITS_PER_MESSAGE = 1;
export const CREDITS_EXHAUSTED = "CREDITS_EXHAUSTED";
export const CONNECTION_ERROR_TITLE = "Erro de Conexão";
export const CONNECTION_ERROR_MESSAGE = "Não foi possível se comunicar com o servidor";
export const NOT_UNDERSTOOD = "Não consegui entender o áudio. Tente falar de novo, mais perto do microfone.";
export const VOICE_UNAVAILABLE = "Mensagens de voz não estão disponíveis no momento.";
/** Where chat audio lives in R2 (learners' voice messages, Nika's synthesised replies); served only to the owner. */
export const CHAT_AUDIO_ROUTE = "/resources/chat-audio/";

// ——— errors and results ———

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

export type NikaReply = { id: string; text: string; audioUrl: string | null };

export type ProviderFailure = {
  status: "provider_error";
  code: "PROVIDER_ERROR";
  kind: ProviderErrorKind;
  title: typeof CONNECTION_ERROR_TITLE;
  message: typeof CONNECTION_ERROR_MESSAGE;
};
export type Unavailable = { status: "unavailable"; code: "NIKA_UNAVAILABLE"; message: typeof NIKA_UNAVAILABLE };

export type SendResult =
  | { status: "ok"; userMessageId: string; reply: NikaReply; englishLevel: CefrLevel | null; balance: number }
  /** A voice message whose transcription came back empty: nothing understood, the credit is given back. */
  | { status: "not_understood"; code: "NOT_UNDERSTOOD"; message: typeof NOT_UNDERSTOOD }
  | { status: "credits_exhausted"; code: typeof CREDITS_EXHAUSTED; balance: number | null }
  | ProviderFailure
  | Unavailable;

export type GreetResult =
  | { status: "ok"; reply: NikaReply }
  /**
   * The conversation already has messages (greeting again would be a free model call) or, with `elsewhere`,
   * another request holds its greeting right now (two tabs at once).
   */
  | { status: "already_started"; elsewhere?: true }
  | ProviderFailure
  | Unavailable;

/** Something the stream reports besides reply tokens: the transcription of a voice message. */
export type TranscriptionEvent = { type: "transcription"; messageId: string; text: string; audioUrl: string | null };
export type StreamItem = string | TranscriptionEvent;

export type ChatOptions = {
  onToken?: (piece: string) => void;
  onEvent?: (event: TranscriptionEvent) => void;
  signal?: AbortSignal;
  /** Provider timeouts and fetch (tests shorten the 30 s chat timeout). */
  providerOptions?: ProviderOptions;
  /** The session is checked by the request's first statement itself (a kept session user: no separate read first). */
  session?: SessionRecheck;
};

type UserRef = { id: string };

const unavailable = (): Unavailable => ({ status: "unavailable", code: "NIKA_UNAVAILABLE", message: NIKA_UNAVAILABLE });
const providerFailure = (kind: ProviderErrorKind): ProviderFailure => ({
  status: "provider_error",
  code: "PROVIDER_ERROR",
  kind,
  title: CONNECTION_ERROR_TITLE,
  message: CONNECTION_ERROR_MESSAGE,
});

// ——— validation and access ———

/** Trims and checks the learner's text: non-empty, at most 5000 characters (spec §5). Form posts send CRLF; stored as LF. */
export function validateMessageText(raw: unknown): string {
  const text = typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").trim() : "";
  if (!text) throw new ChatError("invalid_text", 400, "Digite uma mensagem.");
  if (text.length > MESSAGE_MAX_CHARS) {
    throw new ChatError("invalid_text", 400, `Mensagem muito longa (máximo ${MESSAGE_MAX_CHARS} caracteres).`);
  }
  return text;
}

/** Throws a 403 ChatError when the mode's flag is off (lesson practice is never gated). */
export async function assertModeEnabled(context: AppLoadContext, mode: ChatModeId): Promise<void> {
  const flag = CHAT_MODE_INFO[mode].flag;
  if (!flag) return;
  const flags = await getFlags(context);
  if (!flags[flag]) throw new ChatError("feature_disabled", 403, "Recurso Temporariamente Indisponível");
}

type OwnedConversation = Omit<ChatConversation, "greetingClaimedAt"> & { lesson: LessonContext | null };
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

// ——— conversations ———

/** Creates a conversation and counts it in users.conversations_started (atomic `+ 1`). */
export async function startConversation(
  context: AppLoadContext,
  user: UserRef,
  input: { mode: string; lessonId?: string | null },
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
    const [conversation] = await tx.insert(chatConversations).values({ userId: user.id, mode, lessonId }).returning();
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

/** SQL: the flag key of the conversation mode in `c.mode` (null for lesson practice, never gated). */
const modeFlagKey = sql.join(
  [
    sql.raw("case c.mode"),
    ...Object.values(CHAT_MODE_INFO)
      .filter((m) => m.flag)
      .map((m) => sql`when ${m.id} then ${m.flag}`),
    sql.raw("else null end"),
  ],
  sql` `,
);

/**
 * Everything a learner message needs before the provider is called — the conversation (owned by the
 * user) with its lesson, its mode's flag (default on), the last HISTORY_TURNS complete turns — as the
 * gate of the credit spend, so reading and paying are ONE round trip (Nika's first token waits on it).
 */
function sendGate(userId: string, conversationId: string, sessionOk: SQL) {
  return sql`
    select c.id, c.user_id, c.mode, c.lesson_id, c.created_at, c.updated_at,
      l.title as lesson_title, l.description as lesson_description,
      session.ok as session_ok,
      coalesce((select ac.config_value from ${appConfig} ac where ac.config_key = ${modeFlagKey}), true) and session.ok as allowed,
      coalesce((
        select json_agg(json_build_object('role', h.role, 'text', h.text) order by h.created_at, h.id)
        from (
          select m.role, m.text, m.created_at, m.id from ${chatMessages} m
          where m.conversation_id = c.id and m.status = 'complete'
          order by m.created_at desc, m.id desc limit ${HISTORY_TURNS}
        ) h
      ), '[]'::json) as history
    from ${chatConversations} c left join ${lessons} l on l.id = c.lesson_id
      cross join lateral (select ${sessionOk} as ok) session
    where c.id = ${conversationId} and c.user_id = ${userId}
    limit 1`;
}

/**
 * Checks the conversation and takes the credit in one statement; throws ChatError 404/403. The learner's message
 * is stored later under `messageId`, the spend's ref: if the request dies before that, the sweep
 * (refundAbandonedSpends) gives the credit back.
 */
async function payForMessage(
  context: AppLoadContext,
  user: UserRef,
  conversationId: string,
  messageId: string,
  session?: SessionRecheck,
): Promise<{ conversation: OwnedConversation; history: HistoryTurn[]; spend: SpendResult }> {
  if (!isUuid(conversationId)) throw new ChatError("not_found", 404, "Conversa não encontrada");
  const sessionOk = session ? sessionStillValid(session.sessionId, user.id) : sql`true`;
  const gate = sendGate(user.id, conversationId, sessionOk);
  const { row, spend } = await spendCreditsGated(context.db, user.id, CREDITS_PER_MESSAGE, CHAT_MESSAGE_CREDIT_REASON, gate, messageId);
  if (row && session && !row.session_ok) {
    // The session ended, the account was blocked or its month turned since this isolate read it: nothing was
    // spent; read the session now (which renews a new month's credits) and pay again, or refuse like the guard.
    const { refusal } = await session.recheck();
    if (refusal) throw new SessionRefusedError(refusal);
    return payForMessage(context, user, conversationId, messageId);
  }
  if (!row) throw new ChatError("not_found", 404, "Conversa não encontrada");
  if (!spend) throw new ChatError("feature_disabled", 403, "Recurso Temporariamente Indisponível");
  const history = jsonValue<HistoryTurn[]>(row.history);
  const conversation: OwnedConversation = {
    id: String(row.id),
    userId: String(row.user_id),
    mode: row.mode as ChatModeId,
    lessonId: (row.lesson_id as string | null) ?? null,
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.updated_at as string),
    lesson:
      row.lesson_title == null ? null : { title: String(row.lesson_title), description: (row.lesson_description as string | null) ?? null },
  };
  return { conversation, history, spend };
}

// ——— the provider call ———

/**
 * Streams the provider's reply, yielding pieces as they arrive. In english-test mode the level
 * marker is held back from the stream (the final `done` text is the clean text anyway).
 * Returns the full raw text; throws ProviderError.
 */
/** Storing something the reply depends on failed (not the provider's fault). */
class StoreError extends Error {
  constructor(readonly original: unknown) {
    super("store failed");
  }
}

/**
 * Streams the provider's reply, yielding pieces as they arrive. In english-test mode the level
 * marker is held back from the stream (the final `done` text is the clean text anyway).
 * `alongside` (storing the learner's message) is started right after the provider request, so it runs while the
 * provider prepares its first token; it must succeed before any token goes out (else StoreError, and the provider
 * call is cancelled).
 * Returns the full raw text; throws ProviderError.
 */
async function* streamReply(
  providers: AiProviders,
  built: ReturnType<typeof buildChatMessages>,
  meta: { conversationId: string; mode: ChatModeId; userId: string },
  signal: AbortSignal | undefined,
  alongside?: () => Promise<unknown>,
): AsyncGenerator<string, string> {
  let full = "";
  const hider = meta.mode === "english-test" ? markerHider() : null;
  const iterator = providers.chat
    .streamChat({
      messages: built.messages,
      maxTokens: built.maxTokens,
      signal,
      context: { sessionId: meta.conversationId, mode: meta.mode, userId: meta.userId },
    })
    [Symbol.asyncIterator]();
  let step = iterator.next(); // starts the provider request
  if (alongside) {
    step.catch(() => {}); // observed below; only keeps an early failure from being "unhandled"
    try {
      await alongside();
    } catch (error) {
      void iterator.return?.(undefined as never)?.catch(() => {});
      throw new StoreError(error);
    }
  }
  try {
    for (;;) {
      const { done, value: piece } = await step;
      if (done) break;
      step = iterator.next();
      if (!piece) continue;
      full += piece;
      const visible = hider ? hider.push(piece) : piece;
      if (visible) yield visible;
    }
  } catch (error) {
    throw toProviderError(error, providers.chat.name, false);
  }
  const rest = hider?.flush();
  if (rest) yield rest;
  if (!full.trim()) throw new ProviderError("bad_response", providers.chat.name, "empty reply");
  return full;
}

/** Holds back anything from "[[" until its "]]" so a NIKA_LEVEL marker never reaches the screen. */
export function markerHider() {
  let pending = "";
  return {
    push(piece: string): string {
      pending += piece;
      let out = "";
      for (;;) {
        const open = pending.indexOf("[[");
        if (open === -1) {
          // keep a trailing "[" (it may be the first half of "[[")
          const keep = pending.endsWith("[") ? 1 : 0;
          out += pending.slice(0, pending.length - keep);
          pending = pending.slice(pending.length - keep);
          return out;
        }
        out += pending.slice(0, open);
        pending = pending.slice(open);
        const close = pending.indexOf("]]");
        if (close === -1) return out;
        const candidate = pending.slice(0, close + 2);
        pending = pending.slice(close + 2);
        if (!parseLevelMarker(candidate)) out += candidate;
      }
    },
    flush(): string {
      const rest = parseLevelMarker(pending) ? "" : pending;
      pending = "";
      return rest;
    },
  };
}

/**
 * Nika's reply read aloud by the configured text-to-speech provider, stored in R2 next to the
 * conversation. Null when there is no TTS provider or it fails: the player then speaks the text with
 * the browser's speech synthesis, so a TTS hiccup never costs the learner the reply.
 */
async function synthesizeReplyAudio(
  context: AppLoadContext,
  providers: AiProviders,
  conversationId: string,
  messageId: string,
  text: string,
): Promise<string | null> {
  if (!providers.tts) return null;
  try {
    const audio = await providers.tts.synthesize(text);
    return await storeChatAudio(context, conversationId, messageId, { bytes: audio.bytes, mimeType: audio.mimeType.toLowerCase() });
  } catch (error) {
    console.warn("chat: text-to-speech failed", errorMessage(error));
    return null;
  }
}

/** Stores Nika's answer; `startedAt` (a timestamptz text) dates it from when it began rather than from now. */
async function storeNikaReply(
  context: AppLoadContext,
  providers: AiProviders,
  conversation: OwnedConversation,
  rawText: string,
  startedAt?: string,
): Promise<{ reply: NikaReply; englishLevel: CefrLevel | null }> {
  let text = rawText.trim();
  let englishLevel: CefrLevel | null = null;
  if (conversation.mode === "english-test") {
    const marker = parseLevelMarker(text);
    if (marker) {
      englishLevel = marker.level;
      text = marker.cleanText;
      await context.db
        .update(users)
        .set({ englishLevel: marker.level, englishLevelAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(users.id, conversation.userId));
      // A page load during the reply may have kept the learner without it: the account page must show it at once.
      forgetUserSessions(context, conversation.userId);
      // A finished level test, once per test conversation (a retake is a new conversation).
      await recordActivitySafely(context.db, { userId: conversation.userId, kind: "level_test", ref: conversation.id });
    }
  }
  const [row] = await context.db
    .insert(chatMessages)
    .values({
      conversationId: conversation.id,
      role: "nika",
      text,
      status: "complete",
      ...(startedAt ? { createdAt: sql`${startedAt}::timestamptz` } : {}),
    })
    .returning({ id: chatMessages.id });
  const audioUrl = await synthesizeReplyAudio(context, providers, conversation.id, row!.id, text);
  if (audioUrl) await context.db.update(chatMessages).set({ audioUrl }).where(eq(chatMessages.id, row!.id));
  await context.db
    .update(chatConversations)
    .set({ updatedAt: sql`now()` })
    .where(eq(chatConversations.id, conversation.id));
  return { reply: { id: row!.id, text, audioUrl }, englishLevel };
}

// ——— greeting (the free `start` turn) ———

/**
 * The greeting endpoint's stream: finds the learner's conversation and claims its greeting in one statement (which
 * also re-checks a kept session), checks its mode's flag (kept per isolate), then asks the provider — one statement
 * before the provider's request. A conversation that has begun, or whose greeting another request holds, is
 * `already_started`; a greeting that ends without being stored frees its claim for the next try.
 */
export async function* greetConversationStream(
  context: AppLoadContext,
  user: UserRef,
  conversationId: string,
  options: Omit<ChatOptions, "onToken" | "onEvent"> = {},
): AsyncGenerator<string, GreetResult> {
  const providers = getAiProviders(context.cloudflare.env, options.providerOptions);
  const conversation = await findOwnedConversation(context, user, conversationId, {
    session: options.session,
    claimGreeting: providers !== null,
  });
  let stored = false;
  try {
    await assertModeEnabled(context, conversation.mode);
    if (!providers) return unavailable();
    if (conversation.started) return { status: "already_started" };
    if (!conversation.greetingClaim) return { status: "already_started", elsewhere: true };
    const result = yield* askForGreeting(context, providers, conversation, options.signal);
    stored = result.status === "ok";
    return result;
  } finally {
    if (conversation.greetingClaim && !stored) await releaseGreetingClaim(context, conversation.id, conversation.greetingClaim);
  }
}

/** Nika's first message of a conversation: free of charge, streamed, stored. */
export function greet(context: AppLoadContext, user: UserRef, conversationId: string, options: ChatOptions = {}): Promise<GreetResult> {
  return drive(greetConversationStream(context, user, conversationId, options), options);
}

/** Streams the greeting of a conversation whose greeting this request holds, and stores it. */
async function* askForGreeting(
  context: AppLoadContext,
  providers: AiProviders,
  conversation: FoundConversation,
  signal: AbortSignal | undefined,
): AsyncGenerator<string, GreetResult> {
  const built = buildChatMessages({ mode: conversation.mode, lesson: conversation.lesson ?? undefined, history: [], userText: null });
  let raw: string;
  try {
    raw = yield* streamReply(
      providers,
      built,
      { conversationId: conversation.id, mode: conversation.mode, userId: conversation.userId },
      signal,
    );
  } catch (error) {
    const failure = toProviderError(error, providers.chat.name, false);
    console.warn("chat greet failed", failure.message);
    return providerFailure(failure.kind);
  }
  // Dated from its claim: a message another tab sent while it streamed comes after it, as the learner saw it.
  const { reply } = await storeNikaReply(context, providers, conversation, raw, conversation.greetingClaim ?? undefined);
  return { status: "ok", reply };
}

/**
 * Frees the claim this request took (only that one: a claim that expired and was taken again stays). When the
 * database cannot be reached the claim simply expires after GREETING_CLAIM_TTL_SECONDS.
 */
async function releaseGreetingClaim(context: AppLoadContext, conversationId: string, claimedAt: string): Promise<void> {
  await context.db
    .update(chatConversations)
    .set({ greetingClaimedAt: null })
    .where(and(eq(chatConversations.id, conversationId), eq(chatConversations.greetingClaimedAt, sql`${claimedAt}::timestamptz`)))
    .catch((error: unknown) => console.warn("chat: greeting claim not released", errorMessage(error)));
}

// ——— a learner message ———

export type VoiceInput = { bytes: Uint8Array; mimeType: string };
export type MessageInput = { text?: unknown; audio?: VoiceInput | null };

/** Spec §5 audio blob rules, on the server: audio/*, 1 024 bytes to 50 MB. */
export function validateVoice(audio: VoiceInput): VoiceInput {
  const problem = validateAudioBlob({ size: audio.bytes.byteLength, type: audio.mimeType });
  if (!problem) return { bytes: audio.bytes, mimeType: audio.mimeType.split(";")[0]!.trim().toLowerCase() };
  const status = problem.code === "too-large" ? 413 : problem.code === "type" ? 415 : 400;
  throw new ChatError("invalid_audio", status, problem.pt);
}

const AUDIO_EXTENSIONS: Record<string, string> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/webm": "webm",
  "audio/ogg": "ogg",
};

/** Puts chat audio in R2 under chat-audio/{conversationId}/{messageId}.{ext}; returns its guarded URL. */
async function storeChatAudio(context: AppLoadContext, conversationId: string, messageId: string, audio: VoiceInput): Promise<string> {
  const ext = AUDIO_EXTENSIONS[audio.mimeType] ?? "bin";
  const key = `${CHAT_AUDIO_FOLDER}/${conversationId}/${messageId}.${ext}`;
  await putObject(mediaBucket(context), key, audio.bytes, { contentType: audio.mimeType });
  return `${CHAT_AUDIO_ROUTE}${conversationId}/${messageId}.${ext}`;
}

/**
 * One learner message, text or voice. Order matters: validate → ownership → flag → provider
 * configured → spend 1 credit → (voice: transcribe) → store → stream the reply. Any provider failure
 * after the spend gives the credit back.
 */
export async function* sendMessageStream(
  context: AppLoadContext,
  user: UserRef,
  conversationId: string,
  input: MessageInput,
  options: Omit<ChatOptions, "onToken" | "onEvent"> = {},
): AsyncGenerator<StreamItem, SendResult> {
  const voice = input.audio ? validateVoice(input.audio) : null;
  const typed = voice ? null : validateMessageText(input.text);
  const providers = getAiProviders(context.cloudflare.env, options.providerOptions);
  if (!providers || (voice && !providers.stt)) {
    // Checks run in order — ownership, flag, then the provider — so a missing or foreign conversation
    // is a 404 and a disabled mode a 403 even where no provider is configured (costs a query only here).
    const conversation = await findOwnedConversation(context, user, conversationId);
    await assertModeEnabled(context, conversation.mode);
    if (!providers) return unavailable();
    throw new ChatError("voice_unavailable", 503, VOICE_UNAVAILABLE);
  }

  const userMessageId = crypto.randomUUID();
  const { conversation, history, spend: spent } = await payForMessage(context, user, conversationId, userMessageId, options.session);
  if (!spent.ok) return { status: "credits_exhausted", code: CREDITS_EXHAUSTED, balance: spent.balance };

  let text: string;
  if (voice) {
    try {
      const transcription = await providers.stt!.transcribe(
        { bytes: voice.bytes, mimeType: voice.mimeType, context: { sessionId: conversation.id, mode: conversation.mode, userId: user.id } },
        options.signal,
      );
      text = transcription.text.trim();
    } catch (error) {
      const failure = toProviderError(error, providers.stt!.name, false);
      console.warn("chat transcription failed", failure.message);
      await refundCredits(context.db, user.id, CREDITS_PER_MESSAGE, "refund:provider_failed", userMessageId);
      return providerFailure(failure.kind);
    }
    if (!text) {
      await refundCredits(context.db, user.id, CREDITS_PER_MESSAGE, "refund:not_understood", userMessageId);
      return { status: "not_understood", code: "NOT_UNDERSTOOD", message: NOT_UNDERSTOOD };
    }
  } else {
    text = typed!;
  }

  const built = buildChatMessages({ mode: conversation.mode, lesson: conversation.lesson ?? undefined, history, userText: text });
  // Stored while the provider prepares its first token (one round trip less before it).
  const storeUserMessage = async () => {
    await context.db.insert(chatMessages).values({
      id: userMessageId,
      conversationId: conversation.id,
      role: "user",
      text,
      transcription: voice ? text : null,
      status: "complete",
    });
    if (voice) {
      try {
        const audioUrl = await storeChatAudio(context, conversation.id, userMessageId, voice);
        await context.db.update(chatMessages).set({ audioUrl }).where(eq(chatMessages.id, userMessageId));
        return audioUrl;
      } catch (error) {
        // The transcription is what Nika answers; losing the learner's own recording is not worth failing for.
        console.error("chat: could not store the voice message", error);
      }
    }
    return null;
  };

  const meta = { conversationId: conversation.id, mode: conversation.mode, userId: user.id };
  let raw: string;
  try {
    if (voice) {
      // The learner sees the transcription first (the provider starts right after).
      const audioUrl = await storeUserMessage().catch((error: unknown) => {
        throw new StoreError(error);
      });
      yield { type: "transcription", messageId: userMessageId, text, audioUrl };
    }
    raw = yield* streamReply(providers, built, meta, options.signal, voice ? undefined : storeUserMessage);
  } catch (error) {
    if (error instanceof StoreError) {
      await refundCredits(context.db, user.id, CREDITS_PER_MESSAGE, "refund:server_error", userMessageId);
      throw error.original;
    }
    const failure = toProviderError(error, providers.chat.name, false);
    console.warn("chat send failed", failure.message);
    await refundCredits(context.db, user.id, CREDITS_PER_MESSAGE, "refund:provider_failed", userMessageId);
    // Kept for the transcript, but marked failed: it is left out of the model's history.
    await context.db.update(chatMessages).set({ status: "failed" }).where(eq(chatMessages.id, userMessageId));
    return providerFailure(failure.kind);
  }
  const { reply, englishLevel } = await storeNikaReply(context, providers, conversation, raw);
  // An exchange: the learner's message, answered (a greeting is not one). Its id is the ref: counted once.
  await recordActivitySafely(context.db, { userId: user.id, kind: "chat_exchange", ref: userMessageId });
  // A page load during the reply may have kept the learner's "Hoje" without this exchange (keptWithSession).
  forgetUserSessions(context, user.id);
  return { status: "ok", userMessageId, reply, englishLevel, balance: spent.balance };
}

/** Sends the learner's text (or voice) to Nika: validates, checks ownership, spends 1 credit, streams and stores the reply. */
export function sendMessage(
  context: AppLoadContext,
  user: UserRef,
  conversationId: string,
  input: MessageInput,
  options: ChatOptions = {},
): Promise<SendResult> {
  return drive(sendMessageStream(context, user, conversationId, input, options), options);
}

type Listeners = Pick<ChatOptions, "onToken" | "onEvent">;

async function drive<R>(stream: AsyncGenerator<StreamItem, R>, listeners: Listeners = {}): Promise<R> {
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
    emit(step.value, listeners);
  }
}

function emit(item: StreamItem, { onToken, onEvent }: Listeners) {
  if (typeof item === "string") onToken?.(item);
  else onEvent?.(item);
}

// ——— Server-Sent Events ———

export type ChatStreamEvent =
  | { event: "token"; data: { t: string } }
  | { event: "transcription"; data: { messageId: string; text: string; audioUrl: string | null } }
  | {
      event: "done";
      data: { id: string; text: string; audioUrl: string | null; englishLevel?: CefrLevel | null; balance?: number };
    }
  | { event: "error"; data: { code: string; message: string; title?: string; status?: number } };

/** The HTTP status that goes with an outcome (used when it is known before the first token). */
export function statusOf(result: SendResult | GreetResult): number {
  switch (result.status) {
    case "ok":
      return 200;
    case "already_started":
      return 409;
    case "credits_exhausted":
      return 402;
    case "not_understood":
      return 422;
    case "provider_error":
      return result.kind === "timeout" ? 504 : 502;
    case "unavailable":
      return 503;
  }
}

/** What the final event of a stream says, for any outcome of send or greet. */
export function finalEvent(result: SendResult | GreetResult): ChatStreamEvent {
  switch (result.status) {
    case "ok":
      return {
        event: "done",
        data: {
          ...result.reply,
          ...("englishLevel" in result ? { englishLevel: result.englishLevel, balance: result.balance } : {}),
        },
      };
    case "already_started":
      return { event: "error", data: { code: "ALREADY_STARTED", message: "A conversa já começou.", status: 409 } };
    case "credits_exhausted":
      return { event: "error", data: { code: CREDITS_EXHAUSTED, message: "Seus créditos acabaram.", status: 402 } };
    case "not_understood":
      return { event: "error", data: { code: result.code, message: result.message, status: 422 } };
    case "provider_error":
      return { event: "error", data: { code: result.code, title: result.title, message: result.message, status: statusOf(result) } };
    case "unavailable":
      return { event: "error", data: { code: result.code, message: result.message, status: 503 } };
  }
}

export function formatEvent({ event, data }: ChatStreamEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function itemEvent(item: StreamItem): ChatStreamEvent {
  if (typeof item === "string") return { event: "token", data: { t: item } };
  return { event: "transcription", data: { messageId: item.messageId, text: item.text, audioUrl: item.audioUrl } };
}

function errorEvent(error: unknown): ChatStreamEvent {
  if (error instanceof ChatError) return { event: "error", data: { code: error.code, message: error.message, status: error.status } };
  if (error instanceof SessionRefusedError) {
    const { code, message, status } = error.refusal;
    return { event: "error", data: { code, message, status, ...(code === "UNAUTHENTICATED" ? { title: AUTH_ERROR_TITLE } : {}) } };
  }
  if (isDatabaseUnavailable(error)) {
    console.warn("chat stream: database unavailable");
    const { title, message } = DATABASE_UNAVAILABLE;
    return { event: "error", data: { code: "DATABASE_UNAVAILABLE", title, message, status: 503 } };
  }
  console.error("chat stream failed", error);
  return { event: "error", data: { code: "SERVER_ERROR", title: CONNECTION_ERROR_TITLE, message: CONNECTION_ERROR_MESSAGE, status: 500 } };
}

const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

function eventResponse(body: BodyInit, status: number, retryAfter?: number): Response {
  return new Response(body, { status, headers: retryAfter ? { ...SSE_HEADERS, "Retry-After": String(retryAfter) } : SSE_HEADERS });
}

/** A refusal or failure before the first event: never stored, like the endpoint guard's (stream.server's errorEventResponse). */
function errorResponse(body: BodyInit, status: number, retryAfter?: number): Response {
  const response = eventResponse(body, status, retryAfter);
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/**
 * A `text/event-stream` Response for a send or greet stream: `event: token` per piece (and
 * `event: transcription` for voice), then one `event: done` ({id, text, audioUrl, …}) or
 * `event: error` ({code, message, status}).
 *
 * The first item is awaited before answering, so whatever fails before Nika's first token
 * (validation, 404, flag, credits, provider down) gets its own HTTP status instead of a 200.
 * After that the stream is pumped independently of the client: if the learner goes away, the reply
 * is still stored (the credit was spent) — `waitUntil` keeps the worker alive for it.
 */
export async function toEventStream(
  stream: AsyncGenerator<StreamItem, SendResult | GreetResult>,
  options: { waitUntil?: (promise: Promise<unknown>) => void } = {},
): Promise<Response> {
  const encoder = new TextEncoder();
  let first: IteratorResult<StreamItem, SendResult | GreetResult>;
  try {
    first = await stream.next();
  } catch (error) {
    const event = errorEvent(error);
    const status = event.event === "error" ? (event.data.status ?? 500) : 500;
    // A database outage says when to try again, as every other 503 of the app does.
    const retryAfter = event.event === "error" && event.data.code === "DATABASE_UNAVAILABLE" ? DB_RETRY_AFTER_SECONDS : undefined;
    return errorResponse(formatEvent(event), status, retryAfter);
  }
  if (first.done) return eventResponse(formatEvent(finalEvent(first.value)), statusOf(first.value));

  let open = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      open = false;
    },
  });
  const send = (event: ChatStreamEvent) => {
    if (!open) return;
    try {
      controller.enqueue(encoder.encode(formatEvent(event)));
    } catch {
      open = false;
    }
  };
  const pump = (async () => {
    send(itemEvent(first.value as StreamItem));
    try {
      for (;;) {
        const step = await stream.next();
        if (step.done) {
          send(finalEvent(step.value));
          break;
        }
        send(itemEvent(step.value));
      }
    } catch (error) {
      send(errorEvent(error));
    }
    if (open) {
      open = false;
      controller.close();
    }
  })();
  options.waitUntil?.(pump);
  return eventResponse(body, 200);
}
