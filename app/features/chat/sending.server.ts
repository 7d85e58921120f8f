// A learner message to Nika, the server side: 1 credit taken atomically BEFORE the provider is called and refunded
// if it fails, the reply streamed token by token from whichever provider is configured (app/server/ai), then stored
// (with its audio, and the English level test's result read from a structured marker in Nika's reply).
//
// `sendMessageStream` is an async generator that yields reply tokens and *returns* the outcome; `sendMessage` drives
// it with an `onToken` callback (no-JS form posts, tests), events.server's `toEventStream` turns it into a
// `text/event-stream` Response (resource routes with JS). The greeting (greeting.server) reuses the reply half.
import { eq, sql, type SQL } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import {
  assertModeEnabled,
  ChatError,
  CHAT_MODE_INFO,
  findOwnedConversation,
  HISTORY_TURNS,
  SessionRefusedError,
  buildChatMessages,
  markerHider,
  parseLevelMarker,
  type CefrLevel,
  type ChatModeId,
  type HistoryTurn,
  type OwnedConversation,
  type SessionRecheck,
  type UserRef,
  chatConversations,
  chatMessages,
  type ConversationFocusItem,
} from "~/features/conversation";
import { lessons } from "~/features/courses";
import { reviewLearnerTurn } from "~/features/notebook";
import { validateAudioBlob } from "~/lib/audio/validate";
import { errorMessage } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { recordActivitySafely } from "~/server/activity.server";
import { getAiProviders, NIKA_UNAVAILABLE } from "~/server/ai/index.server";
import { ProviderError, toProviderError, type AiProviders, type ProviderErrorKind, type ProviderOptions } from "~/server/ai/types";
import { forgetUserSessions, sessionStillValid } from "~/server/auth.server";
import {
  ABANDONED_AFTER_MS,
  CHAT_MESSAGE_CREDIT_REASON,
  refundCredits,
  spendCreditsGated,
  type AbandonedSpends,
  type SpendResult,
} from "~/server/credits.server";
import { jsonValue } from "~/server/db.server";
import { appConfig, users } from "~/server/schema";
import { CHAT_AUDIO_FOLDER, mediaBucket, putObject } from "~/server/storage.server";

export const MESSAGE_MAX_CHARS = 5000;
export const CREDITS_PER_MESSAGE = 1;
export const CREDITS_EXHAUSTED = "CREDITS_EXHAUSTED";
export const CONNECTION_ERROR_TITLE = "Erro de Conexão";
export const CONNECTION_ERROR_MESSAGE = "Não foi possível se comunicar com o servidor";
export const NOT_UNDERSTOOD = "Não consegui entender o áudio. Tente falar de novo, mais perto do microfone.";
export const VOICE_UNAVAILABLE = "Mensagens de voz não estão disponíveis no momento.";
/** Where chat audio lives in R2 (learners' voice messages, Nika's synthesised replies); served only to the owner. */
export const CHAT_AUDIO_ROUTE = "/resources/chat-audio/";

// ——— results ———

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

export const unavailable = (): Unavailable => ({ status: "unavailable", code: "NIKA_UNAVAILABLE", message: NIKA_UNAVAILABLE });
export const providerFailure = (kind: ProviderErrorKind): ProviderFailure => ({
  status: "provider_error",
  code: "PROVIDER_ERROR",
  kind,
  title: CONNECTION_ERROR_TITLE,
  message: CONNECTION_ERROR_MESSAGE,
});

// ——— validation ———

/** Trims and checks the learner's text: non-empty, at most 5000 characters (spec §5). Form posts send CRLF; stored as LF. */
export function validateMessageText(raw: unknown): string {
  const text = typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").trim() : "";
  if (!text) throw new ChatError("invalid_text", 400, "Digite uma mensagem.");
  if (text.length > MESSAGE_MAX_CHARS) {
    throw new ChatError("invalid_text", 400, `Mensagem muito longa (máximo ${MESSAGE_MAX_CHARS} caracteres).`);
  }
  return text;
}

// ——— paying ———

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
    select c.id, c.user_id, c.mode, c.lesson_id, c.created_at, c.updated_at, c.focus,
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
    focus: jsonValue<ConversationFocusItem[] | null>(row.focus) ?? [],
    lesson:
      row.lesson_title == null ? null : { title: String(row.lesson_title), description: (row.lesson_description as string | null) ?? null },
  };
  return { conversation, history, spend };
}

// ——— the provider call ———

/** Storing something the reply depends on failed (not the provider's fault). */
export class StoreError extends Error {
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
export async function* streamReply(
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
export async function storeNikaReply(
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

  const built = buildChatMessages({
    mode: conversation.mode,
    lesson: conversation.lesson ?? undefined,
    focus: conversation.focus,
    history,
    userText: text,
  });
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
  // After the reply, in the background: the learner's mistakes for "Meu caderno" (free, and never in the way), and
  // which of the conversation's focus they used right.
  const answered = history.at(-1);
  const turn = {
    userId: user.id,
    text,
    source: conversation.lesson ? "lesson" : voice ? "voice" : "chat",
    conversationId: conversation.id,
    messageId: userMessageId,
    focus: conversation.focus,
    previousNika: answered?.role === "nika" ? answered.text : null,
  } as const;
  context.cloudflare.ctx.waitUntil(reviewLearnerTurn(context.db, providers, turn));
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

export async function drive<R>(stream: AsyncGenerator<StreamItem, R>, listeners: Listeners = {}): Promise<R> {
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

// ——— the sweep ———

/**
 * How far back the sweep looks for chat spends (it runs every 5 minutes): older ones are settled. It also keeps a
 * message deleted long after it was paid for from ever counting as never stored (nothing deletes messages today but
 * their user, whose ledger goes with them).
 */
export const ABANDONED_LOOKBACK_MS = 24 * 60 * 60_000;

/**
 * A chat message's credit (ledger `chat_message`, the message id as ref) whose message was never stored: the
 * request died between the spend and storing the message. Settled by its refund (one per ref: a unique index).
 */
export const abandonedChatMessages: AbandonedSpends = {
  name: "chatMessages",
  rows: (now) => sql`
    select s.user_id, s.ref, 1 as credits from credit_ledger s
    where s.ref is not null and s.delta < 0 and s.reason = ${CHAT_MESSAGE_CREDIT_REASON}
      and s.created_at < ${new Date(now.getTime() - ABANDONED_AFTER_MS)} and s.created_at >= ${new Date(now.getTime() - ABANDONED_LOOKBACK_MS)}
      and not exists (select 1 from chat_messages m where m.id = s.ref)
      and not exists (select 1 from credit_ledger r where r.ref = s.ref and r.delta > 0)`,
};
