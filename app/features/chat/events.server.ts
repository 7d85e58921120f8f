// Server-sent events, the chat's one wire format with JavaScript: the event shapes, their headers, the stream of a
// send or a greeting, and the error responses of the endpoints (which answer in the same format, so the island
// reads one).
import { AUTH_ERROR_TITLE, ChatError, SessionRefusedError, type CefrLevel } from "~/features/conversation";
import { DATABASE_UNAVAILABLE, DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "~/server/db.server";
import {
  CONNECTION_ERROR_MESSAGE,
  CONNECTION_ERROR_TITLE,
  CREDITS_EXHAUSTED,
  type GreetResult,
  type SendResult,
  type StreamItem,
} from "./sending.server";

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

/** A refusal or failure before the first event (the endpoint guard's, a send's or a greeting's): never stored. */
function errorResponse(body: BodyInit, status: number, retryAfter?: number): Response {
  const response = eventResponse(body, status, retryAfter);
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/** An endpoint's refusal before any work (bad id, method, access): one `event: error`. */
export function errorEventResponse(status: number, data: { code: string; message: string; title?: string }): Response {
  return errorResponse(formatEvent({ event: "error", data: { ...data, status } }), status);
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
