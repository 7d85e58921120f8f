// Conversa ao vivo (the live spoken conversation with Nika): what the browser and the relay (the LiveConversation Durable Object) say to
// each other over the app's WebSocket, and the limits both sides hold. Shared by server and client.
//
// Audio both ways is raw PCM16 little-endian mono at LIVE_SAMPLE_RATE, sent as binary frames; everything
// else is one JSON object per text frame. The provider's own protocol (OpenAI Realtime events) never
// reaches the browser: the relay translates.

/** The provider's rate (OpenAI Realtime `audio/pcm`): the browser resamples the microphone to it. */
export const LIVE_SAMPLE_RATE = 24_000;
/** The browser sends one frame per this many milliseconds of microphone audio. */
export const LIVE_FRAME_MS = 40;
export const LIVE_FRAME_BYTES = (LIVE_SAMPLE_RATE * LIVE_FRAME_MS * 2) / 1000; // 1,920

/** Limits the relay holds (item 5): a client beyond them is closed with the code named. */
export const LIVE_LIMITS = {
  /** One binary frame at most 200 ms of audio. */
  maxFrameBytes: (LIVE_SAMPLE_RATE * 200 * 2) / 1000, // 9,600
  /** One JSON message at most this many bytes. */
  maxTextBytes: 2_048,
  /** Messages per second (audio + JSON) the browser may send, counted over one-second windows. */
  maxMessagesPerSecond: 60,
  /** Audio per second the browser may send: twice real time leaves room for a burst after a stall. */
  maxAudioBytesPerSecond: LIVE_SAMPLE_RATE * 2 * 2,
  /** A session ends after 15 minutes… */
  maxSessionMs: 15 * 60_000,
  /** …or after 60 s in which neither side spoke. */
  silenceMs: 60_000,
  /** A dropped browser may come back to the same session (not charged again) within this time. */
  resumeMs: 10_000,
} as const;

/** WebSocket close codes of the live socket (4000–4999 are the application's). */
export const LIVE_CLOSE = {
  ended: 1000,
  /** Garbage: a JSON message that is not one of ours, or a frame of odd length. */
  badMessage: 1008,
  /** A frame or message over the size limit. */
  tooBig: 1009,
  takenOver: 4001,
  creditsExhausted: 4002,
  timeLimit: 4003,
  silence: 4004,
  providerUnavailable: 4005,
  /** More messages or audio per second than allowed. */
  tooFast: 4029,
  /** The account was blocked, signed out or lost access while the session ran. */
  accessLost: 4008,
} as const;

export type LiveEndReason =
  | "ended"
  | "taken_over"
  | "credits_exhausted"
  | "time_limit"
  | "silence"
  | "provider_unavailable"
  | "bad_message"
  | "too_big"
  | "too_fast"
  | "access_lost";

export const END_CLOSE_CODE: Record<LiveEndReason, number> = {
  ended: LIVE_CLOSE.ended,
  taken_over: LIVE_CLOSE.takenOver,
  credits_exhausted: LIVE_CLOSE.creditsExhausted,
  time_limit: LIVE_CLOSE.timeLimit,
  silence: LIVE_CLOSE.silence,
  provider_unavailable: LIVE_CLOSE.providerUnavailable,
  bad_message: LIVE_CLOSE.badMessage,
  too_big: LIVE_CLOSE.tooBig,
  too_fast: LIVE_CLOSE.tooFast,
  access_lost: LIVE_CLOSE.accessLost,
};

/** What the learner reads when a session ends (pt-BR). */
export const END_MESSAGES: Record<LiveEndReason, string> = {
  ended: "Conversa encerrada.",
  taken_over: "A conversa ao vivo continuou em outra aba ou aparelho.",
  credits_exhausted: "Seus créditos acabaram.",
  time_limit: "A conversa ao vivo chegou ao limite de 15 minutos.",
  silence: "A conversa foi encerrada depois de 1 minuto em silêncio.",
  provider_unavailable: "A conversa ao vivo está indisponível no momento. Tente de novo em instantes.",
  bad_message: "A conexão enviou dados inválidos e foi encerrada.",
  too_big: "A conexão enviou dados grandes demais e foi encerrada.",
  too_fast: "A conexão enviou dados rápido demais e foi encerrada.",
  access_lost: "Sua sessão não permite mais a conversa ao vivo. Entre de novo.",
};

export type Speaker = "learner" | "nika";

/** Relay → browser (JSON text frames). Binary frames from the relay are Nika's audio of the current item. */
export type ServerMessage =
  /** The session is running: its id (to resume it after a drop), what it costs and what is left. */
  | { type: "ready"; sessionId: string; creditsPerMinute: number; balance: number; maxSeconds: number; resumed: boolean }
  /** The learner started speaking (provider VAD): stop Nika's playback now and answer with `interrupted`. */
  | { type: "speech_started" }
  /** Nika's audio for `itemId` starts; the binary frames that follow belong to it. */
  | { type: "nika_item"; itemId: string }
  /** Live captions: `delta` appends to the caption of `itemId`; `final` replaces it with the whole text. */
  | { type: "caption"; speaker: Speaker; itemId: string; delta?: string; final?: string }
  /** A minute began and was paid: the balance after it. `lastMinute` when the next one cannot be paid. */
  | { type: "minute"; minute: number; balance: number; lastMinute: boolean }
  | { type: "ended"; reason: LiveEndReason; message: string };

/** Browser → relay (JSON text frames). Binary frames from the browser are microphone audio. */
export type ClientMessage =
  /** Playback of `itemId` stopped after `playedMs` milliseconds because the learner spoke over it. */
  { type: "interrupted"; itemId: string; playedMs: number } | { type: "end" } | { type: "ping" };

/** Parses a browser message; null for anything that is not exactly one of ours (the relay closes with badMessage). */
export function parseClientMessage(text: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case "interrupted":
      return typeof message.itemId === "string" &&
        message.itemId.length > 0 &&
        message.itemId.length <= 100 &&
        typeof message.playedMs === "number" &&
        Number.isFinite(message.playedMs) &&
        message.playedMs >= 0 &&
        message.playedMs <= LIVE_LIMITS.maxSessionMs
        ? { type: "interrupted", itemId: message.itemId, playedMs: Math.floor(message.playedMs) }
        : null;
    case "end":
      return { type: "end" };
    case "ping":
      return { type: "ping" };
    default:
      return null;
  }
}

/** The app's WebSocket endpoint of a conversation's live session (`resume` = the session id after a drop). */
export function liveSocketPath(conversationId: string, resume?: string | null): string {
  const query = resume ? `?resume=${encodeURIComponent(resume)}` : "";
  return `/resources/live/${conversationId}${query}`;
}
