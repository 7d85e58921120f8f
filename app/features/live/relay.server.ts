// The LiveConversation Durable Object: one per learner (`idFromName(userId)`), so a learner has at most one live
// session, and a second tab takes it over. It holds two WebSockets — the browser's and the provider's — and relays
// audio both ways as it arrives (one frame, never a buffer), keeps the minute clock that spends credits, stores each
// finished turn in the conversation, and holds the limits. The worker (connect.server.ts) has already checked the
// session cookie, the flag, the conversation's owner and the credits before it hands the upgrade here.
import { DurableObject } from "cloudflare:workers";
import type { ConversationFocusItem } from "~/features/conversation";
import { reviewLearnerTurn } from "~/features/notebook";
import { getAiProviders } from "~/server/ai/index.server";
import { createRequestDb, type Database } from "~/server/db.server";
import { loadEnv, type Env } from "~/server/env";
import { LIVE_HEADERS, liveCreditsPerMinute, liveTimings, realtimeConfig, type LiveTimings, type RealtimeConfig } from "./config.server";
import {
  beginLiveSession,
  chargeMinute,
  confirmMinute,
  endLiveSession,
  heardPart,
  loadLiveContext,
  recordServedMinute,
  refundMinute,
  storeTurn,
} from "./live.server";
import {
  END_CLOSE_CODE,
  END_MESSAGES,
  LIVE_LIMITS,
  LIVE_SAMPLE_RATE,
  parseClientMessage,
  type LiveEndReason,
  type ServerMessage,
} from "./protocol";
import {
  appendAudio,
  cancelResponse,
  decodeAudio,
  isFatalProviderError,
  openProviderSocket,
  parseProviderEvent,
  PROVIDER_CONNECT_TIMEOUT_MS,
  PROVIDER_RESPONSE_TIMEOUT_MS,
  sessionUpdate,
  truncateItem,
  type ProviderEvent,
} from "./provider.server";

/** Silence is checked this many times per silence limit (every 5 s of a real minute). */
const SILENCE_CHECKS = 12;
/** After Nika's reply was all sent, how long past its audio's length the learner may still be hearing it. */
const PLAYBACK_MARGIN_MS = 1_500;

const bytesToMs = (bytes: number) => Math.round((bytes / 2 / LIVE_SAMPLE_RATE) * 1000);

export class LiveConversation extends DurableObject<Env> {
  private session: LiveSession | null = null;

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426, headers: { Upgrade: "websocket" } });
    }
    const userId = request.headers.get(LIVE_HEADERS.user);
    const conversationId = request.headers.get(LIVE_HEADERS.conversation);
    const resume = request.headers.get(LIVE_HEADERS.resume);
    if (!userId || !conversationId) return new Response("Missing session headers", { status: 400 });
    const { 0: client, 1: server } = new WebSocketPair();
    server.accept();
    const current = this.session;
    if (current && !current.ended && resume && current.id === resume && current.conversationId === conversationId) {
      current.attach(server, true);
    } else {
      current?.end("taken_over");
      const env = loadEnv(this.env);
      const session = new LiveSession(env, realtimeConfig(env), userId, conversationId, () => {
        if (this.session === session) this.session = null;
      });
      this.session = session;
      session.attach(server, false);
      void session.start();
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  /** RPC from `closeLiveSession` (the learner signed out or was blocked): ends their session. Returns how many were ended. */
  async closeUser(userId: string): Promise<number> {
    const session = this.session;
    if (!session || session.ended || session.userId !== userId) return 0;
    session.end("access_lost");
    return 1;
  }
}

type NikaItem = {
  responseId: string | null;
  startedAt: Date;
  /** When its first audio went to the browser (performance clock), null before. */
  firstAudioAt: number | null;
  audioBytes: number;
  transcript: string;
  done: boolean;
  playedMs: number | null;
  stored: boolean;
  storeTimer: ReturnType<typeof setTimeout> | null;
};

/** One live session: created for a new connection, ended once (its end is final; a resume re-attaches a browser). */
class LiveSession {
  id: string | null = null;
  ended = false;
  private browser: WebSocket | null = null;
  private provider: WebSocket | null = null;
  private providerReady = false;
  private startedAt = 0;
  private minute = 0;
  private balance = 0;
  /** Set when the provider failed: the minute it failed in is given back. */
  private providerFault = false;
  /** Why it ended, as recorded on its row. */
  private recordedReason: string | null = null;
  private readonly creditsPerMinute: number;
  private readonly timings: LiveTimings;
  private lastActivityAt = Date.now();
  /** Between the provider's speech_started and speech_stopped: a learner talking at length is not silence. */
  private learnerSpeaking = false;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private detachTimer: ReturnType<typeof setTimeout> | null = null;
  private responseTimer: ReturnType<typeof setTimeout> | null = null;
  private activeResponse: string | null = null;
  private readonly nikaItems = new Map<string, NikaItem>();
  /** Nika's items already stored: an event still in flight for one (the learner spoke over it) is dropped, not a new turn. */
  private readonly storedNikaItems = new Set<string>();
  private readonly learnerItems = new Map<string, Date>();
  /** The item whose audio the browser is being sent (binary frames belong to it). */
  private announcedItem: string | null = null;
  private window = { startedAt: 0, messages: 0, audioBytes: 0 };
  /** The due mistakes the conversation brings back, and Nika's last turn: what each learner turn's review is told. */
  private focus: ConversationFocusItem[] = [];
  private lastNika: string | null = null;
  /** Database work in order (a turn before the session's end), each on its own short-lived connection. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly env: Env,
    private readonly config: RealtimeConfig | null,
    readonly userId: string,
    readonly conversationId: string,
    private readonly onEnded: () => void,
  ) {
    this.creditsPerMinute = liveCreditsPerMinute(env);
    this.timings = liveTimings(env);
  }

  // ——— lifecycle ———

  async start(): Promise<void> {
    if (!this.config) return this.end("provider_unavailable");
    let instructions: string;
    try {
      const context = await this.read((db) => loadLiveContext(db, this.userId, this.conversationId));
      if (!context) return this.end("access_lost");
      // Taken over (or closed) while the context was read: no row to write, and writing one now would end the newer
      // session's row, whose start may already have run.
      if (this.ended) return;
      instructions = context.instructions;
      this.focus = context.focus;
      this.lastNika = context.lastNika;
      this.id = await this.read((db) => beginLiveSession(db, this.userId, this.conversationId, this.creditsPerMinute));
    } catch (error) {
      console.error("[live] could not start a session", error);
      return this.end("provider_unavailable");
    }
    if (this.ended) {
      // Ended while its row was being written (a takeover during set-up): the row ends too, or it stays active.
      const sessionId = this.id;
      this.write((db) => endLiveSession(db, sessionId, this.recordedReason ?? "ended"));
      return;
    }
    this.startedAt = Date.now();
    // The first minute is paid before the provider is reached; if the provider then fails, it is refunded.
    if (!(await this.payNextMinute("pending"))) return;
    try {
      this.provider = await openProviderSocket(this.config);
    } catch (error) {
      return this.providerFailed(String(error));
    }
    if (this.ended) return this.provider.close(1000, "ended");
    this.provider.addEventListener("message", (event) => this.onProviderMessage(event.data));
    this.provider.addEventListener("close", () => this.providerFailed("closed"));
    this.provider.addEventListener("error", () => this.providerFailed("socket error"));
    this.send(this.provider, sessionUpdate(this.config, instructions));
    this.later(() => {
      if (!this.providerReady) this.providerFailed("no answer to session.update");
    }, PROVIDER_CONNECT_TIMEOUT_MS);
    this.later(() => this.end("time_limit"), this.timings.maxSessionMs);
    const checkSilence = () => {
      if (!this.learnerSpeaking && Date.now() - this.lastActivityAt >= this.timings.silenceMs) return this.end("silence");
      this.later(checkSilence, this.timings.silenceMs / SILENCE_CHECKS);
    };
    this.later(checkSilence, this.timings.silenceMs / SILENCE_CHECKS);
  }

  /** Gives the session a browser socket: a new one, or the same learner back after a drop (not charged again). */
  attach(socket: WebSocket, resumed: boolean): void {
    const previous = this.browser;
    this.browser = socket;
    if (previous) this.closeBrowser(previous, "taken_over");
    if (this.detachTimer) clearTimeout(this.detachTimer);
    this.detachTimer = null;
    socket.addEventListener("message", (event) => this.onBrowserMessage(socket, event.data));
    socket.addEventListener("close", (event) => {
      // Completes the closing handshake the browser started (1005/1006 cannot be sent back).
      try {
        socket.close(event.code === 1005 || event.code === 1006 ? 1000 : event.code, "bye");
      } catch {
        // already closed
      }
      this.detach(socket);
    });
    socket.addEventListener("error", () => this.detach(socket));
    if (resumed && this.providerReady) {
      this.announcedItem = null; // the next audio announces its item again
      this.sendReady(true);
    }
  }

  /** The browser went away without ending: the session waits LIVE_LIMITS.resumeMs for it, then ends. */
  private detach(socket: WebSocket) {
    if (this.browser !== socket || this.ended) return;
    this.browser = null;
    this.detachTimer = setTimeout(() => this.end("ended", "connection_lost"), this.timings.resumeMs);
  }

  end(reason: LiveEndReason, recordedReason: string = reason): void {
    if (this.ended) return;
    this.ended = true;
    this.recordedReason = recordedReason;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.detachTimer) clearTimeout(this.detachTimer);
    if (this.responseTimer) clearTimeout(this.responseTimer);
    if (this.browser) this.closeBrowser(this.browser, reason);
    this.browser = null;
    try {
      this.provider?.close(1000, "session ended");
    } catch {
      // already closed
    }
    // What Nika said and the learner may have heard in full joins the conversation too.
    for (const [itemId, item] of this.nikaItems) if (!item.stored) this.storeNika(itemId, item);
    const sessionId = this.id;
    const minute = this.minute;
    if (sessionId) {
      if (this.providerFault && minute > 0) this.write((db) => refundMinute(db, sessionId, minute));
      this.write((db) => endLiveSession(db, sessionId, recordedReason));
      if (!this.providerFault && minute > 0) this.recordMinute(minute);
    }
    void this.writes.finally(() => this.onEnded());
  }

  private closeBrowser(socket: WebSocket, reason: LiveEndReason) {
    try {
      socket.send(JSON.stringify({ type: "ended", reason, message: END_MESSAGES[reason] } satisfies ServerMessage));
      socket.close(END_CLOSE_CODE[reason], reason);
    } catch {
      // already closed
    }
  }

  // ——— credits ———

  /** Pays the next minute; false (and the session ended) when the learner has no credits for it. */
  private async payNextMinute(status: "pending" | "used"): Promise<boolean> {
    const minute = this.minute + 1;
    const sessionId = this.id!;
    let charge;
    try {
      charge = await this.read((db) => chargeMinute(db, { sessionId, userId: this.userId, minute, credits: this.creditsPerMinute, status }));
    } catch (error) {
      console.error("[live] could not charge a minute", error);
      this.end("provider_unavailable");
      return false;
    }
    if (this.ended) {
      // The session ended while this minute was being paid: nothing of it will be served, so it is given back.
      if (charge.ok) this.write((db) => refundMinute(db, sessionId, minute));
      return false;
    }
    if (!charge.ok) {
      this.end("credits_exhausted");
      return false;
    }
    // The minute before this one is over and served: it counts now (the current one when the session ends).
    if (minute > 1) this.recordMinute(minute - 1);
    this.minute = minute;
    this.balance = charge.balance;
    const { minuteMs, maxSessionMs } = this.timings;
    const lastMinute = charge.balance < this.creditsPerMinute || minute * minuteMs >= maxSessionMs;
    this.toBrowser({ type: "minute", minute, balance: charge.balance, lastMinute });
    if (minute * minuteMs < maxSessionMs) {
      this.later(() => void this.payNextMinute(this.providerReady ? "used" : "pending"), this.startedAt + minute * minuteMs - Date.now());
    }
    return true;
  }

  private recordMinute(minute: number) {
    const sessionId = this.id!;
    this.write((db) => recordServedMinute(db, { userId: this.userId, sessionId, minute }));
  }

  private providerFailed(why: string) {
    if (this.ended) return;
    console.warn("[live] provider failed:", why);
    this.providerFault = true;
    this.end("provider_unavailable");
  }

  // ——— provider → browser ———

  private onProviderMessage(data: unknown) {
    if (this.ended) return;
    const event = parseProviderEvent(data);
    if (!event) return;
    switch (event.type) {
      case "session.updated":
        if (this.providerReady) return;
        this.providerReady = true;
        this.write((db) => confirmMinute(db, this.id!, this.minute));
        this.sendReady(false);
        return;
      case "input_audio_buffer.speech_started":
        return this.onSpeechStarted(event);
      case "input_audio_buffer.speech_stopped":
        this.learnerSpeaking = false;
        this.lastActivityAt = Date.now();
        return;
      case "input_audio_buffer.committed":
        this.awaitResponse();
        return;
      case "conversation.item.input_audio_transcription.delta":
        if (event.item_id && event.delta) this.toBrowser({ type: "caption", speaker: "learner", itemId: event.item_id, delta: event.delta });
        return;
      case "conversation.item.input_audio_transcription.completed":
        return this.onLearnerTranscript(event);
      case "response.created":
        this.activeResponse = event.response?.id ?? "response";
        this.clearResponseTimer();
        return;
      case "response.output_item.added":
        if (event.item?.id && event.item.role !== "user") this.nikaItem(event.item.id);
        return;
      case "response.output_audio.delta":
        return this.onNikaAudio(event);
      case "response.output_audio_transcript.delta":
        if (event.item_id && event.delta) {
          const item = this.nikaItem(event.item_id);
          if (!item) return;
          item.transcript += event.delta;
          this.toBrowser({ type: "caption", speaker: "nika", itemId: event.item_id, delta: event.delta });
        }
        return;
      case "response.output_audio_transcript.done":
        if (event.item_id && typeof event.transcript === "string") {
          const item = this.nikaItem(event.item_id);
          if (!item) return;
          item.transcript = event.transcript;
          this.toBrowser({ type: "caption", speaker: "nika", itemId: event.item_id, final: event.transcript });
        }
        return;
      case "response.done":
        return this.onResponseDone(event);
      case "error":
        if (isFatalProviderError(event)) this.providerFailed(`${event.error?.code ?? "error"}: ${event.error?.message ?? ""}`);
        return;
    }
  }

  private sendReady(resumed: boolean) {
    this.toBrowser({
      type: "ready",
      sessionId: this.id!,
      creditsPerMinute: this.creditsPerMinute,
      balance: this.balance,
      maxSeconds: Math.max(0, Math.round((this.startedAt + this.timings.maxSessionMs - Date.now()) / 1000)),
      resumed,
    });
  }

  /** Barge-in: the learner speaks. The browser stops Nika at once (and tells how much it played); the provider stops generating. */
  private onSpeechStarted(event: ProviderEvent) {
    this.learnerSpeaking = true;
    this.lastActivityAt = Date.now();
    if (event.item_id) this.learnerItems.set(event.item_id, new Date());
    if (this.activeResponse && this.provider) {
      this.send(this.provider, cancelResponse());
      this.activeResponse = null;
    }
    this.toBrowser({ type: "speech_started" });
  }

  private onLearnerTranscript(event: ProviderEvent) {
    this.lastActivityAt = Date.now();
    const itemId = event.item_id ?? "";
    const text = (event.transcript ?? "").trim();
    this.toBrowser({ type: "caption", speaker: "learner", itemId, final: text });
    const at = this.learnerItems.get(itemId) ?? new Date();
    this.learnerItems.delete(itemId);
    if (!text) return;
    this.write(async (db) => {
      const messageId = await storeTurn(db, { conversationId: this.conversationId, speaker: "learner", text, at });
      this.reviewTurn(text, messageId);
    });
  }

  /** The turn's mistakes for "Meu caderno", on a connection of its own: never in the way of the minute's writes. */
  private reviewTurn(text: string, messageId: string | null) {
    const providers = getAiProviders(this.env);
    if (!providers) return;
    const turn = {
      userId: this.userId,
      text,
      source: "live",
      conversationId: this.conversationId,
      messageId,
      focus: this.focus,
      previousNika: this.lastNika,
    } as const;
    void this.read((db) => reviewLearnerTurn(db, providers, turn));
  }

  private onNikaAudio(event: ProviderEvent) {
    if (!event.item_id || !event.delta) return;
    this.lastActivityAt = Date.now();
    const item = this.nikaItem(event.item_id);
    if (!item || item.playedMs !== null) return; // the learner already spoke over this item
    const audio = decodeAudio(event.delta);
    item.audioBytes += audio.byteLength;
    if (!this.browser) return;
    if (this.announcedItem !== event.item_id) {
      this.announcedItem = event.item_id;
      this.toBrowser({ type: "nika_item", itemId: event.item_id });
    }
    item.firstAudioAt ??= performance.now();
    try {
      this.browser.send(audio);
    } catch {
      // the browser is going away; detach() follows
    }
  }

  private onResponseDone(event: ProviderEvent) {
    const responseId = event.response?.id ?? null;
    if (this.activeResponse === responseId || responseId === null) this.activeResponse = null;
    for (const [itemId, item] of this.nikaItems) {
      if (item.done || (item.responseId && responseId && item.responseId !== responseId)) continue;
      item.done = true;
      if (item.stored || item.playedMs !== null) continue;
      // Stored once the learner has surely heard it all (or sooner, if they speak over it).
      const playing = item.firstAudioAt === null ? 0 : item.firstAudioAt + bytesToMs(item.audioBytes) + PLAYBACK_MARGIN_MS - performance.now();
      item.storeTimer = setTimeout(() => this.storeNika(itemId, item), Math.max(0, playing));
    }
  }

  private nikaItem(itemId: string): NikaItem | null {
    if (this.storedNikaItems.has(itemId)) return null;
    let item = this.nikaItems.get(itemId);
    if (!item) {
      item = {
        responseId: this.activeResponse,
        startedAt: new Date(),
        firstAudioAt: null,
        audioBytes: 0,
        transcript: "",
        done: false,
        playedMs: null,
        stored: false,
        storeTimer: null,
      };
      this.nikaItems.set(itemId, item);
    }
    return item;
  }

  private storeNika(itemId: string, item: NikaItem) {
    if (item.stored) return;
    item.stored = true;
    if (item.storeTimer) clearTimeout(item.storeTimer);
    this.nikaItems.delete(itemId);
    this.storedNikaItems.add(itemId);
    const text = item.playedMs === null ? item.transcript : heardPart(item.transcript, item.playedMs, bytesToMs(item.audioBytes));
    if (!text.trim()) return;
    this.lastNika = text;
    this.write((db) => storeTurn(db, { conversationId: this.conversationId, speaker: "nika", text, at: item.startedAt }));
  }

  /** A finished turn must get a response soon; a provider that stays silent has stalled. */
  private awaitResponse() {
    this.clearResponseTimer();
    this.responseTimer = setTimeout(() => this.providerFailed("no response to a finished turn"), PROVIDER_RESPONSE_TIMEOUT_MS);
  }

  private clearResponseTimer() {
    if (this.responseTimer) clearTimeout(this.responseTimer);
    this.responseTimer = null;
  }

  // ——— browser → provider ———

  private onBrowserMessage(socket: WebSocket, data: unknown) {
    if (this.ended || socket !== this.browser) return;
    const now = Date.now();
    if (now - this.window.startedAt >= 1000) this.window = { startedAt: now, messages: 0, audioBytes: 0 };
    this.window.messages++;
    if (typeof data === "string") {
      if (this.window.messages > LIVE_LIMITS.maxMessagesPerSecond) return this.end("too_fast");
      if (data.length > LIVE_LIMITS.maxTextBytes) return this.end("too_big");
      const message = parseClientMessage(data);
      if (!message) return this.end("bad_message");
      if (message.type === "end") return this.end("ended");
      if (message.type === "interrupted") this.onInterrupted(message.itemId, message.playedMs);
      return;
    }
    if (!(data instanceof ArrayBuffer)) return this.end("bad_message");
    if (data.byteLength > LIVE_LIMITS.maxFrameBytes) return this.end("too_big");
    if (data.byteLength === 0 || data.byteLength % 2 !== 0) return this.end("bad_message");
    this.window.audioBytes += data.byteLength;
    if (this.window.messages > LIVE_LIMITS.maxMessagesPerSecond || this.window.audioBytes > LIVE_LIMITS.maxAudioBytesPerSecond) {
      return this.end("too_fast");
    }
    if (this.providerReady && this.provider) this.send(this.provider, appendAudio(data));
  }

  /** The browser stopped Nika's audio after `playedMs`: the provider forgets what was not heard. */
  private onInterrupted(itemId: string, playedMs: number) {
    const item = this.nikaItems.get(itemId);
    if (!item || item.playedMs !== null || !this.provider) return;
    const heardMs = Math.min(playedMs, bytesToMs(item.audioBytes));
    item.playedMs = heardMs;
    if (!item.done && this.activeResponse) {
      this.send(this.provider, cancelResponse());
      this.activeResponse = null;
    }
    this.send(this.provider, truncateItem(itemId, heardMs));
    this.storeNika(itemId, item);
  }

  // ——— plumbing ———

  private toBrowser(message: ServerMessage) {
    if (!this.browser) return;
    try {
      this.browser.send(JSON.stringify(message));
    } catch {
      // the browser is going away; detach() follows
    }
  }

  private send(socket: WebSocket, event: object) {
    try {
      socket.send(JSON.stringify(event));
    } catch {
      // a provider socket that closed reports it through its close event
    }
  }

  private later(fn: () => void, ms: number) {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.ended) fn();
      },
      Math.max(0, ms),
    );
    this.timers.add(timer);
  }

  /** Runs a statement on a connection of its own (a session outlives any one connection's idle limits). */
  private async read<T>(work: (db: Database) => Promise<T>): Promise<T> {
    const requestDb = createRequestDb(this.env);
    try {
      return await work(requestDb.db);
    } finally {
      void requestDb.close();
    }
  }

  /** Queues a write after the ones before it; a failure is logged (the sweep settles an unconfirmed minute). */
  private write(work: (db: Database) => Promise<unknown>) {
    this.writes = this.writes.then(() => this.read(work)).catch((error) => console.error("[live] a write failed", error));
  }
}
