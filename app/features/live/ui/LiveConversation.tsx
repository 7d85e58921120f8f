// Conversa ao vivo's island (loaded after hydration by ../LiveScreen): the start button (the tap unlocks audio
// and asks for the microphone), the state, both sides' live captions, mute and end, the credits left, and
// how it ended with the way back to the text chat. The state is on the root as data-live-state. "Encerrar" ends on
// "Resumo da conversa" once the relay has closed the session (its last turn stored).
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button, buttonVariants } from "~/components/button";
import { MicIcon } from "~/components/icons";
import { NoticeBox } from "~/components/notice";
import type { LivePageData } from "../page.server";
import type { LiveStatus } from "./live-session";
import { useLiveSession } from "./use-live-session";

const CreditsDialog = lazy(() => import("~/components/CreditsDialog").then((m) => ({ default: m.CreditsDialog })));

/** The page's loader data (../page.server.ts) is the island's props. */
export type LiveConversationProps = LivePageData;

const STATUS_TEXT: Record<LiveStatus, string> = {
  idle: "Pronta para conversar",
  connecting: "Conectando…",
  listening: "Ouvindo",
  nika_speaking: "Nika falando",
  reconnecting: "Reconectando…",
  ended: "Conversa encerrada",
};

/** 44 px tall (touch). */
const tall = "h-11 py-0";

const credits = (n: number) => (n === 1 ? "1 crédito" : `${n} créditos`);

export function LiveConversation({
  conversationId,
  modeTitle,
  chatHref,
  reportHref,
  creditsPerMinute,
  balance,
  buyHref,
}: LiveConversationProps) {
  const live = useLiveSession({ conversationId, balance, creditsPerMinute });
  const { session, status } = live;
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (leaving && status === "ended") void navigate(reportHref);
  }, [leaving, status, navigate, reportHref]);
  const running = status === "connecting" || status === "listening" || status === "nika_speaking" || status === "reconnecting";
  const captionsEnd = useRef<HTMLLIElement>(null);
  const shown = live.captions.filter((caption) => caption.text.trim() !== "");
  const latest = shown.at(-1)?.text;

  useEffect(() => {
    captionsEnd.current?.scrollIntoView({ block: "nearest" });
  }, [shown.length, latest]);

  return (
    <section
      className="mt-4 flex flex-col gap-4"
      data-testid="live-conversation"
      data-live-state={status}
      aria-label="Conversa ao vivo com a Nika"
    >
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-white px-4 py-6 text-center shadow-sm dark:border-night-700 dark:bg-night-900">
        <StatusIndicator status={status} muted={live.muted} />
        <p role="status" aria-live="polite" className="text-lg font-bold tracking-tight" data-testid="live-status">
          {STATUS_TEXT[status]}
          {live.muted && running ? (
            <span className="block text-sm font-semibold text-slate-600 dark:text-slate-300">Microfone silenciado</span>
          ) : null}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="live-credits">
          {credits(live.balance)} · {credits(live.creditsPerMinute)} por minuto
        </p>
        {status === "idle" ? (
          <p className="max-w-md text-sm text-slate-700 dark:text-slate-200">
            Fale com a Nika em tempo real no modo {modeTitle}. Você pode interromper quando quiser; as falas ficam no histórico do chat.
          </p>
        ) : null}
      </div>

      {live.warning ? (
        <p
          role="status"
          className="rounded-xl border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100"
          data-testid="live-warning"
        >
          {live.warning}
        </p>
      ) : null}
      <NoticeBox notice={live.problem ? { tone: "error", title: live.problem } : null} className="mb-0" />
      <NoticeBox notice={live.endMessage ? { tone: "info", title: live.endMessage } : null} className="mb-0">
        <div className="mt-3 flex flex-wrap gap-2">
          <Link to={reportHref} className={buttonVariants({ variant: "primary", size: "sm" })} data-testid="live-report">
            Resumo da conversa
          </Link>
          <Link to={chatHref} className={buttonVariants({ variant: "secondary", size: "sm" })} data-testid="live-back-to-chat">
            Voltar ao chat
          </Link>
        </div>
      </NoticeBox>

      {shown.length > 0 ? (
        <ol className="flex flex-col gap-2" aria-label="Legendas" data-testid="live-captions">
          {shown.map((caption) => (
            <li
              key={caption.key}
              data-speaker={caption.speaker}
              className={`max-w-[85%] rounded-2xl px-4 py-2 text-[15px] leading-relaxed ${
                caption.speaker === "learner"
                  ? "self-end rounded-br-md bg-indigo-600 text-white"
                  : "self-start rounded-bl-md border border-slate-200 bg-white text-slate-900 dark:border-night-700 dark:bg-night-900 dark:text-slate-100"
              }`}
            >
              <span
                className={`block text-xs font-semibold ${caption.speaker === "learner" ? "text-indigo-100" : "text-slate-600 dark:text-slate-300"}`}
              >
                {caption.speaker === "learner" ? "Você" : "Nika"}
              </span>
              {caption.text}
            </li>
          ))}
          <li ref={captionsEnd} aria-hidden="true" />
        </ol>
      ) : null}

      <div className="sticky bottom-[calc(4rem+env(safe-area-inset-bottom))] flex flex-wrap justify-center gap-2 bg-slate-50/95 py-3 md:bottom-0 dark:bg-night-950/95">
        {running ? (
          <>
            <Button
              variant="secondary"
              size="lg"
              className={tall}
              disabled={status === "connecting"}
              onClick={() => session.setMuted(!live.muted)}
            >
              <MicIcon size={20} />
              {live.muted ? "Ativar microfone" : "Silenciar"}
            </Button>
            <Button
              variant="danger"
              size="lg"
              className={tall}
              onClick={() => {
                setLeaving(true);
                session.end();
              }}
            >
              Encerrar
            </Button>
          </>
        ) : (
          <Button size="lg" className={tall} onClick={() => void session.start()}>
            <MicIcon size={20} />
            {status === "ended" ? "Começar outra conversa" : "Começar conversa"}
          </Button>
        )}
      </div>

      <Suspense fallback={null}>
        {live.creditsExhausted ? <CreditsDialog open onOpenChange={(open) => !open && session.dismissCreditsDialog()} buyTo={buyHref} /> : null}
      </Suspense>
    </section>
  );
}

function StatusIndicator({ status, muted }: { status: LiveStatus; muted: boolean }) {
  const speaking = status === "nika_speaking";
  const listening = status === "listening" && !muted;
  return (
    <span
      aria-hidden="true"
      className={`flex size-16 items-center justify-center rounded-full ${
        speaking
          ? "bg-indigo-600 text-white"
          : listening
            ? "bg-emerald-600 text-white"
            : "bg-slate-200 text-slate-700 dark:bg-night-800 dark:text-slate-200"
      }`}
    >
      {speaking ? (
        <span className="flex items-end gap-1">
          {[0, 150, 300].map((delay) => (
            <span key={delay} className="animate-typing h-4 w-1.5 rounded-full bg-white" style={{ animationDelay: `${delay}ms` }} />
          ))}
        </span>
      ) : (
        <MicIcon size={28} className={listening ? "animate-pulse" : undefined} />
      )}
    </span>
  );
}
