// Live refresh of a lesson page: a WebSocket to the lesson's Durable Object channel says "new comment",
// and the page revalidates through its loader (which enforces auth). When the socket is down, the page
// revalidates every 30 s while visible. Browser-only work happens in the effect (SSR-safe).
import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

const POLL_MS = 30_000;
const DEBOUNCE_MS = 250;
const PAUSE_HIDDEN_MS = 60_000;

/** Reconnect delay after `attempt` failed tries: 1 s doubling up to 30 s. */
export const reconnectDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

export const liveUrl = ({ protocol, host }: { protocol: string; host: string }, lessonId: string) =>
  `${protocol === "https:" ? "wss" : "ws"}://${host}/resources/lessons/${encodeURIComponent(lessonId)}/live`;

/** True for the channel's `{"type":"comment",…}`; false for "pong" and anything else. */
export function isCommentMessage(data: unknown): boolean {
  if (typeof data !== "string" || data[0] !== "{") return false;
  try {
    return JSON.parse(data).type === "comment";
  } catch {
    return false;
  }
}

export function useLessonLiveRefresh(lessonId: string): void {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;

  useEffect(() => {
    let socket: WebSocket | undefined;
    let attempt = 0;
    let opened = false;
    let paused = false;
    let lastHeard = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let debounce: ReturnType<typeof setTimeout> | undefined;
    let pause: ReturnType<typeof setTimeout> | undefined;

    // Debounced, and never on top of a revalidation already running (tries again after it).
    const refresh = () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => (latest.current.state === "idle" ? latest.current.revalidate() : refresh()), DEBOUNCE_MS);
    };

    const drop = () => {
      if (!socket) return;
      socket.onopen = socket.onmessage = socket.onclose = null;
      socket.close();
      socket = undefined;
    };

    const reconnectLater = () => {
      clearTimeout(retry);
      if (!paused) retry = setTimeout(connect, reconnectDelay(attempt++));
    };

    function connect() {
      if (socket || paused) return;
      try {
        socket = new WebSocket(liveUrl(location, lessonId));
      } catch {
        return reconnectLater();
      }
      socket.onopen = () => {
        if (opened) refresh(); // comments may have arrived while disconnected
        opened = true;
        attempt = 0;
        lastHeard = Date.now();
      };
      socket.onmessage = (event) => {
        lastHeard = Date.now();
        if (isCommentMessage(event.data)) refresh();
      };
      socket.onclose = () => {
        socket = undefined;
        reconnectLater();
      };
    }

    const tick = setInterval(() => {
      if (socket?.readyState === WebSocket.OPEN) {
        // Two keepalives without an answer: the connection is dead (phone changed network…).
        if (Date.now() - lastHeard > 2 * POLL_MS + 5_000) {
          drop();
          reconnectLater();
        } else socket.send("ping");
      } else if (document.visibilityState === "visible") refresh();
    }, POLL_MS);

    // A tab hidden for a minute lets its socket go; coming back reconnects and catches up.
    const onVisibility = () => {
      clearTimeout(pause);
      if (document.visibilityState === "hidden") {
        pause = setTimeout(() => {
          paused = true;
          clearTimeout(retry);
          drop();
        }, PAUSE_HIDDEN_MS);
      } else if (paused) {
        paused = false;
        attempt = 0;
        connect();
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    connect();

    return () => {
      paused = true;
      [retry, debounce, pause].forEach(clearTimeout);
      clearInterval(tick);
      document.removeEventListener("visibilitychange", onVisibility);
      drop();
    };
  }, [lessonId]);
}
