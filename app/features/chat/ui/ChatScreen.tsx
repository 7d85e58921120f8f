// The chat screen (spec §2): header with back link, messages, Nika's typing indicator, the composer
// (growing text box, send, microphone while the text is empty) and the mode drawer.
// Without JavaScript it is a plain form post: the server waits for the whole reply and redirects back,
// or answers a refusal as a conform reply (the text kept, [title, message]) with a code the page branches on.
// Once the learner has said something, leaving ends on "Resumo da conversa": the back link goes there, the page
// keeps a link to it, and (with JavaScript) 10 minutes without activity go there too.
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Form, Link, useActionData, useNavigate, useNavigation } from "react-router";
import { AudioPlayer } from "~/components/AudioPlayer";
import { BUY_CREDITS_PATH, CreditsExhaustedNotice } from "~/components/credits";
import { ArrowLeftIcon, MicIcon, SparkleIcon } from "~/components/icons";
import { playback } from "~/lib/audio/playback";
import { useVoiceRecorder } from "~/lib/audio/use-voice-recorder";
import { useHydrated } from "~/lib/use-hydrated";
import type { ChatActionData, ChatRefusal } from "../page.server";
import type { ChatFormError, ChatPageData, ClientMessage } from "../types";
import { useChat } from "./use-chat";

const loadOverlays = () => import("./ChatOverlays");
const CreditsDialog = lazy(() => import("~/components/CreditsDialog").then((m) => ({ default: m.CreditsDialog })));
const ModeDrawer = lazy(() => loadOverlays().then((m) => ({ default: m.ModeDrawer })));

/** After this long without activity on the page, a conversation the learner has spoken in ends on its report. */
export const IDLE_LEAVE_MS = 10 * 60_000;
const ACTIVITY_EVENTS = ["keydown", "pointerdown", "input", "scroll"] as const;

/** Goes to `href` after IDLE_LEAVE_MS without a key, a tap, typing or scrolling (while `enabled`). */
function useIdleLeave(enabled: boolean, href: string, restartOn: unknown) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!enabled) return;
    const leave = () => void navigate(href);
    let timer = window.setTimeout(leave, IDLE_LEAVE_MS);
    const restart = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(leave, IDLE_LEAVE_MS);
    };
    for (const type of ACTIVITY_EVENTS) document.addEventListener(type, restart, { passive: true, capture: true });
    return () => {
      window.clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) document.removeEventListener(type, restart, { capture: true });
    };
  }, [enabled, href, navigate, restartOn]);
}

const MAX_HEIGHT_PX = 120;
const MAX_HEIGHT_MOBILE_PX = 100;

/** A refusal shown above the box: the no-JS send's (the action's conform reply) or the awaited greeting's. */
type Refusal = { code: string; title?: string; message?: string };
/** The refusal that gets the buy-credits link (the page branches on codes, never on messages). */
const CREDITS_EXHAUSTED: ChatRefusal = "credits_exhausted";

function refusalOf(actionData: ChatActionData | undefined, greetingError: ChatFormError | null): Refusal | null {
  if (actionData) {
    const [title, message] = actionData.result.error?.[""] ?? [];
    return { code: actionData.code, title, message };
  }
  return greetingError;
}

/** What the learner had typed when the no-JS send was refused (kept in the box). */
function keptText(actionData: ChatActionData | undefined) {
  const text = actionData?.result.initialValue?.text;
  return typeof text === "string" ? text : "";
}

export function ChatScreen({ page, aside }: { page: ChatPageData; aside?: (level: string | null) => React.ReactNode }) {
  const hydrated = useHydrated();
  const chat = useChat(page);
  const actionData = useActionData<ChatActionData>();
  const navigation = useNavigation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const listEnd = useRef<HTMLDivElement>(null);
  const noJsRefusal = refusalOf(actionData, page.greetingError);
  const waitingForGreeting = chat.messages.length === 0 && page.nikaAvailable && !page.greetingError;
  // Dots until Nika's first token arrives; then her bubble grows instead.
  const typing = chat.busy && chat.messages.at(-1)?.role !== "nika";
  // The learner has said something: leaving ends on the conversation's report.
  const spoken = chat.messages.some((message) => message.role === "user" && !message.failed);
  useIdleLeave(spoken && !chat.busy, page.reportHref, chat.messages.length);

  useEffect(() => {
    listEnd.current?.scrollIntoView({ block: "end" });
  }, [chat.messages, typing]);
  useEffect(() => () => playback.stop(), []);

  return (
    <div className="mx-auto flex min-h-[calc(100dvh-3.5rem-5rem)] w-full max-w-3xl flex-col md:min-h-dvh">
      <header className="sticky top-14 z-20 flex items-center gap-2 border-b border-slate-200 bg-white/95 px-3 py-2 backdrop-blur md:top-0 dark:border-night-800 dark:bg-night-950/95">
        <Link
          to={spoken ? page.reportHref : page.backTo}
          aria-label={spoken ? "Sair e ver o resumo da conversa" : page.backLabel}
          data-testid="chat-back"
          className="rounded-full p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-night-800"
        >
          <ArrowLeftIcon size={20} />
        </Link>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base font-bold tracking-tight sm:text-lg">{page.lesson ? page.lesson.title : page.mode.title}</h1>
          <p className="truncate text-xs text-slate-600 dark:text-slate-300">
            {page.lesson ? `Praticar a aula ${page.lesson.key} com a Nika` : "Conversa com a Nika"} ·{" "}
            <span data-testid="chat-credits">{chat.credits === 1 ? "1 crédito" : `${chat.credits} créditos`}</span>
          </p>
        </div>
        {page.liveHref ? (
          <Link to={page.liveHref} className="rounded-full bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-700">
            Conversa ao vivo
          </Link>
        ) : null}
        {hydrated ? (
          <button
            type="button"
            onClick={() => setDrawerOpen(true)}
            onPointerEnter={() => void loadOverlays()}
            aria-haspopup="dialog"
            className="rounded-full border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 dark:border-night-700 dark:text-slate-100 dark:hover:bg-night-800"
          >
            Modos
          </button>
        ) : (
          <Link
            to="/chat-with-nika"
            className="rounded-full border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-800 dark:border-night-700 dark:text-slate-100"
          >
            Modos
          </Link>
        )}
      </header>

      {aside?.(chat.englishLevel)}

      <section aria-label="Mensagens" className="flex-1 px-3 py-4 sm:px-4">
        {!page.nikaAvailable ? (
          <p
            role="alert"
            className="mx-auto max-w-md rounded-2xl border border-amber-300 bg-amber-50 p-4 text-center text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100"
          >
            <strong className="block">Nika não está disponível</strong>
            Nenhum provedor de IA está configurado neste servidor. Tente novamente mais tarde.
          </p>
        ) : null}
        <ol className="flex flex-col gap-3" aria-live="polite" aria-relevant="additions">
          {chat.messages.map((message) => (
            <MessageBubble key={message.id} message={message} lang={page.mode.language} autoPlay={message.id === chat.autoPlayId} />
          ))}
        </ol>
        {typing || (waitingForGreeting && (chat.busy || !hydrated)) ? <TypingIndicator /> : null}
        {spoken && !chat.busy ? (
          <p className="mt-4 text-center text-sm">
            <Link to={page.reportHref} className="font-semibold text-indigo-800 underline underline-offset-2 dark:text-indigo-200">
              Resumo da conversa
            </Link>
          </p>
        ) : null}
        {waitingForGreeting && !hydrated ? (
          // No JavaScript: come back in a moment with &greet=1 and the server waits for Nika's greeting.
          <noscript>
            <meta httpEquiv="refresh" content={`${page.greetingRetrySeconds};url=${page.basePath}?c=${page.conversationId}&greet=1`} />
          </noscript>
        ) : null}
        <div ref={listEnd} />
      </section>

      <div className="sticky bottom-[calc(4rem+env(safe-area-inset-bottom))] z-20 border-t border-slate-200 bg-white/95 px-3 pt-2 pb-3 backdrop-blur md:bottom-0 dark:border-night-800 dark:bg-night-950/95 [:root:has([data-message-input]:focus)_&]:bottom-0">
        {noJsRefusal ? <InlineError refusal={noJsRefusal} /> : null}
        <Composer
          page={page}
          busy={chat.busy || navigation.state === "submitting"}
          hydrated={hydrated}
          initialText={keptText(actionData)}
          onSend={(input) => chat.send(input)}
        />
      </div>

      {hydrated ? (
        <Suspense fallback={null}>
          {chat.creditsDialogOpen ? <CreditsDialog open onOpenChange={chat.setCreditsDialogOpen} buyTo={BUY_CREDITS_PATH} /> : null}
          {drawerOpen ? <ModeDrawer open onOpenChange={setDrawerOpen} page={page} /> : null}
        </Suspense>
      ) : null}
    </div>
  );
}

function MessageBubble({ message, lang, autoPlay }: { message: ClientMessage; lang: "pt" | "en"; autoPlay: boolean }) {
  const mine = message.role === "user";
  const audio = message.localAudioUrl ?? message.audioUrl;
  const streaming = message.role === "nika" && message.processing;
  return (
    <li id={`m-${message.id}`} className={`flex ${mine ? "justify-end" : "justify-start"}`} data-role={message.role} data-testid="chat-message">
      <div
        className={`max-w-[85%] rounded-2xl px-4 py-2.5 text-[15px] leading-relaxed shadow-sm sm:max-w-[75%] ${
          mine
            ? "rounded-br-md bg-indigo-600 text-white"
            : "rounded-bl-md border border-slate-200 bg-white text-slate-900 dark:border-night-700 dark:bg-night-900 dark:text-slate-100"
        }`}
      >
        <span className="sr-only">{mine ? "Você: " : "Nika: "}</span>
        {message.voice && mine ? (
          <span className="mb-1 flex items-center gap-1 text-xs font-semibold text-indigo-100">
            <MicIcon size={14} /> Mensagem de voz
          </span>
        ) : null}
        {message.processing && mine ? (
          <span className="block text-sm text-indigo-100" data-testid="voice-processing">
            Transcrevendo o áudio…
          </span>
        ) : (
          <p className="break-words whitespace-pre-wrap" data-testid="message-text">
            {message.text}
          </p>
        )}
        {message.failed ? (
          <p className={`mt-1 text-xs font-semibold ${mine ? "text-indigo-100" : "text-red-700 dark:text-red-300"}`}>
            Não enviada — tente novamente.
          </p>
        ) : null}
        {mine && audio ? (
          <div className="mt-2">
            <AudioPlayer id={`${message.id}-voice`} src={audio} text="" lang={lang} playLabel="Ouvir sua mensagem de voz" />
          </div>
        ) : null}
        {!mine && !streaming ? (
          <div className="mt-2">
            <AudioPlayer id={message.id} src={message.audioUrl} text={message.text} lang={lang} autoPlay={autoPlay} />
            {message.audioUrl ? (
              <noscript>
                {/* eslint-disable-next-line jsx-a11y/media-has-caption -- Nika's spoken reply; its text is the message shown above */}
                <audio controls preload="none" src={message.audioUrl} className="mt-1 w-full" />
              </noscript>
            ) : null}
          </div>
        ) : null}
      </div>
    </li>
  );
}

function TypingIndicator() {
  return (
    <div className="mt-3 flex justify-start" role="status" aria-label="Nika está digitando…" data-testid="typing-indicator">
      <div className="flex items-center gap-1.5 rounded-2xl rounded-bl-md border border-slate-200 bg-white px-4 py-3.5 dark:border-night-700 dark:bg-night-900">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="animate-typing size-2 rounded-full bg-slate-500 dark:bg-slate-300"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </div>
    </div>
  );
}

function InlineError({ refusal }: { refusal: Refusal }) {
  if (refusal.code === CREDITS_EXHAUSTED) return <CreditsExhaustedNotice className="mb-2 rounded-xl" />;
  return (
    <div
      role="alert"
      className="mb-2 rounded-xl border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-400/40 dark:bg-red-400/10 dark:text-red-100"
    >
      {refusal.title ? <strong className="block">{refusal.title}</strong> : null}
      {refusal.message}
    </div>
  );
}

function Composer({
  page,
  busy,
  hydrated,
  initialText,
  onSend,
}: {
  page: ChatPageData;
  busy: boolean;
  hydrated: boolean;
  initialText: string;
  onSend: (input: { text: string } | { wav: Blob }) => Promise<boolean>;
}) {
  const [text, setText] = useState(initialText);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const voice = useVoiceRecorder((wav) => void onSend({ wav }));
  const empty = text.trim() === "";

  // Grow with the text up to 120 px (100 px on mobile), then scroll.
  useEffect(() => {
    const box = textarea.current;
    if (!box) return;
    const max = window.matchMedia("(max-width: 767px)").matches ? MAX_HEIGHT_MOBILE_PX : MAX_HEIGHT_PX;
    box.style.height = "auto";
    box.style.height = `${Math.min(box.scrollHeight, max)}px`;
  }, [text]);

  const submit = async () => {
    if (busy || empty || !page.nikaAvailable) return;
    // Still inside the learner's tap/keypress: lets Nika's reply play later on iOS Safari.
    playback.unlock();
    const sending = text;
    setText("");
    const sent = await onSend({ text: sending });
    if (!sent) setText((current) => current || sending);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // With JavaScript the reply streams over fetch; the form post is the no-JS path.
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const showMic = hydrated && empty && page.voiceAvailable && page.nikaAvailable;
  return (
    <Form method="post" onSubmit={hydrated ? onSubmit : undefined} className="flex items-end gap-2" data-message-input>
      <input type="hidden" name="intent" value="send" />
      <label htmlFor="chat-text" className="sr-only">
        Mensagem para a Nika
      </label>
      <textarea
        id="chat-text"
        ref={textarea}
        name="text"
        rows={1}
        required
        maxLength={5000}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={voice.recording}
        placeholder={voice.recording ? "Gravando…" : page.mode.language === "pt" ? "Escreva para a Nika…" : "Escreva em inglês ou português…"}
        className="max-h-[100px] min-h-11 flex-1 resize-none rounded-2xl border border-slate-300 bg-white px-4 py-2.5 text-[15px] text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 md:max-h-[120px] dark:border-night-700 dark:bg-night-900 dark:text-slate-100 dark:placeholder:text-slate-400"
      />
      {voice.recording ? (
        <button
          type="button"
          onClick={() => void voice.stop()}
          className="flex h-11 shrink-0 items-center gap-2 rounded-full bg-red-600 px-4 font-semibold text-white hover:bg-red-700"
          aria-label="Parar e enviar a gravação"
        >
          <span className="size-2.5 animate-pulse rounded-full bg-white" aria-hidden="true" />
          <span aria-live="polite">{formatSeconds(voice.seconds)}</span>
        </button>
      ) : showMic ? (
        <button
          type="button"
          onClick={() => void voice.start()}
          disabled={busy || voice.converting}
          className="flex size-11 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-700 disabled:opacity-60"
          aria-label={voice.converting ? "Preparando o áudio…" : "Gravar mensagem de voz"}
        >
          <MicIcon size={20} />
        </button>
      ) : (
        <button
          type="submit"
          disabled={hydrated && (busy || empty || !page.nikaAvailable)}
          className="flex h-11 shrink-0 items-center justify-center gap-1.5 rounded-full bg-indigo-600 px-4 font-semibold text-white hover:bg-indigo-700 disabled:opacity-60"
        >
          <SparkleIcon size={18} />
          Enviar
        </button>
      )}
    </Form>
  );
}

function formatSeconds(total: number) {
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
