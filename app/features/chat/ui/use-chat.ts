// The chat island's state: the messages, Nika's typing/streaming, and the two streaming calls
// (greeting, learner message) read with fetch() as text/event-stream (see stream.server.ts).
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "~/components/Toaster";
import { parseSse } from "~/lib/sse";
import type { ChatPageData, ClientMessage } from "../types";

export type StreamError = { code: string; message: string; title?: string; status?: number };

type DoneData = { id: string; text: string; audioUrl: string | null; englishLevel?: string | null; balance?: number };
type TranscriptionData = { messageId: string; text: string; audioUrl: string | null };

export const CONNECTION_ERROR = { title: "Erro de Conexão", message: "Não foi possível se comunicar com o servidor" };
const AUTH_ERROR_TITLE = "Erro de Autenticação";
/** Spec §8 session errors: toast, sign out, reload after 1.5 s. */
const SESSION_ERROR_RELOAD_MS = 1500;

const STREAMING_ID = "nika-streaming";

type Handlers = {
  onToken: (t: string) => void;
  onTranscription?: (data: TranscriptionData) => void;
};

/** POSTs and reads the event stream; resolves with `done` data or an error (never throws). */
export async function readChatStream(
  url: string,
  body: FormData | null,
  handlers: Handlers,
): Promise<{ done: DoneData } | { error: StreamError }> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body, headers: { Accept: "text/event-stream" } });
  } catch {
    return { error: { code: "NETWORK", ...CONNECTION_ERROR } };
  }
  if (!response.body || !(response.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) {
    return { error: { code: "NETWORK", status: response.status, ...CONNECTION_ERROR } };
  }
  try {
    for await (const event of parseSse(response.body, { stopAtDone: false })) {
      const data = JSON.parse(event.data) as unknown;
      if (event.event === "token") handlers.onToken((data as { t: string }).t);
      else if (event.event === "transcription") handlers.onTranscription?.(data as TranscriptionData);
      else if (event.event === "done") return { done: data as DoneData };
      else if (event.event === "error") return { error: data as StreamError };
    }
  } catch {
    // the connection broke mid-stream
  }
  return { error: { code: "NETWORK", ...CONNECTION_ERROR } };
}

export function useChat(page: ChatPageData) {
  const [messages, setMessages] = useState<ClientMessage[]>(page.messages);
  /** Nika is answering (from the send until done/error). */
  const [busy, setBusy] = useState(false);
  const [credits, setCredits] = useState(page.credits);
  const [englishLevel, setEnglishLevel] = useState(page.englishLevel);
  const [creditsDialogOpen, setCreditsDialogOpen] = useState(false);
  /** The Nika message to play once it is complete (after a learner's tap: audio may start). */
  const [autoPlayId, setAutoPlayId] = useState<string | null>(null);
  const busyRef = useRef(false);

  const appendToken = (t: string) =>
    setMessages((list) => {
      const last = list.at(-1);
      if (last?.id === STREAMING_ID) return [...list.slice(0, -1), { ...last, text: last.text + t }];
      return [...list, { id: STREAMING_ID, role: "nika", text: t, audioUrl: null, voice: false, failed: false, processing: true }];
    });

  const finishReply = (done: DoneData) =>
    setMessages((list) => [
      ...list.filter((m) => m.id !== STREAMING_ID),
      { id: done.id, role: "nika", text: done.text, audioUrl: done.audioUrl, voice: false, failed: false },
    ]);

  const dropStreaming = () => setMessages((list) => list.filter((m) => m.id !== STREAMING_ID));

  const reportError = useCallback((error: StreamError) => {
    if (error.code === "CREDITS_EXHAUSTED") {
      setCredits(0);
      setCreditsDialogOpen(true);
      return;
    }
    if (error.status === 401 || error.code === "UNAUTHENTICATED") {
      toast({ type: "error", title: AUTH_ERROR_TITLE, description: error.message });
      const back = window.location.pathname + window.location.search;
      setTimeout(() => window.location.assign(`/signin?redirectTo=${encodeURIComponent(back)}`), SESSION_ERROR_RELOAD_MS);
      return;
    }
    toast({ type: "error", title: error.title ?? "Erro", description: error.message });
  }, []);

  const greet = useCallback(async () => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    const outcome = await readChatStream(`/resources/chat/${page.conversationId}/greet`, null, { onToken: appendToken });
    if ("done" in outcome) finishReply(outcome.done);
    else {
      dropStreaming();
      if (outcome.error.code !== "ALREADY_STARTED") reportError(outcome.error);
    }
    busyRef.current = false;
    setBusy(false);
  }, [page.conversationId, reportError]);

  /**
   * Sends text or a recorded WAV. Returns false when it was not sent (the caller keeps the text).
   * Ignored while a reply is in progress and when there is nothing to send (spec §5).
   */
  const send = useCallback(
    async (input: { text: string } | { wav: Blob }): Promise<boolean> => {
      const text = "text" in input ? input.text.trim() : "";
      if (busyRef.current || ("text" in input && !text)) return false;
      busyRef.current = true;
      setBusy(true);
      const localId = `local-${Date.now()}`;
      const localAudioUrl = "wav" in input ? URL.createObjectURL(input.wav) : null;
      setMessages((list) => [
        ...list,
        { id: localId, role: "user", text, audioUrl: null, localAudioUrl, voice: "wav" in input, failed: false, processing: "wav" in input },
      ]);
      const body = new FormData();
      if ("wav" in input) body.append("audio", input.wav, "voice.wav");
      else body.append("text", text);

      const outcome = await readChatStream(`/resources/chat/${page.conversationId}/messages`, body, {
        onToken: appendToken,
        onTranscription: (t) =>
          setMessages((list) =>
            list.map((m) => (m.id === localId ? { ...m, id: t.messageId, text: t.text, audioUrl: t.audioUrl, processing: false } : m)),
          ),
      });
      busyRef.current = false;
      setBusy(false);
      if ("done" in outcome) {
        finishReply(outcome.done);
        if (typeof outcome.done.balance === "number") setCredits(outcome.done.balance);
        if (outcome.done.englishLevel) setEnglishLevel(outcome.done.englishLevel);
        setAutoPlayId(outcome.done.id);
        return true;
      }
      dropStreaming();
      // Refused before anything happened (credits, validation): the bubble goes (the text returns to the box).
      // Failed upstream: the bubble stays, marked, as the server keeps it.
      const refused = outcome.error.code !== "NETWORK" && (outcome.error.status ?? 500) < 500;
      setMessages((list) =>
        refused ? list.filter((m) => m.id !== localId) : list.map((m) => (m.id === localId ? { ...m, failed: true, processing: false } : m)),
      );
      reportError(outcome.error);
      return false;
    },
    [page.conversationId, reportError],
  );

  // Nika greets first (the free `start` turn) when the conversation is new.
  useEffect(() => {
    if (page.messages.length === 0 && page.nikaAvailable && !page.greetingError) void greet();
  }, [greet, page.messages.length, page.nikaAvailable, page.greetingError]);

  return { messages, busy, credits, englishLevel, creditsDialogOpen, setCreditsDialogOpen, autoPlayId, send };
}
