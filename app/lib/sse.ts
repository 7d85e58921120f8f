// Incremental Server-Sent Events reader (shared: the AI providers read upstream streams with it, the chat island reads ours).
// The line and field parsing is eventsource-parser's (https://html.spec.whatwg.org/multipage/server-sent-events.html);
// this module adds what the callers rely on: bytes in (chunk boundaries anywhere, also inside a UTF-8 character, which
// TextDecoder joins and whose leading BOM it drops), the OpenAI / Workers AI `[DONE]` end marker, a last event the server
// closed without a blank line, and releasing the body on an early exit.
import { createParser } from "eventsource-parser";

export interface SseEvent {
  event?: string;
  data: string;
  /** The `id` field of this event, when it had one (not carried over to later events). */
  id?: string;
}

export interface ParseSseOptions {
  /** Stop (and cancel the stream) at `data: [DONE]`, the OpenAI / Workers AI end marker. Default true. */
  stopAtDone?: boolean;
}

export async function* parseSse(stream: ReadableStream<Uint8Array>, options: ParseSseOptions = {}): AsyncGenerator<SseEvent> {
  const stopAtDone = options.stopAtDone ?? true;
  const reader = stream.getReader();
  const decoder = new TextDecoder("utf-8");
  let ready: SseEvent[] = [];
  const parser = createParser({
    onEvent({ event, data, id }) {
      const out: SseEvent = { data };
      if (event !== undefined) out.event = event;
      if (id !== undefined) out.id = id;
      ready.push(out);
    },
  });

  try {
    for (;;) {
      const { value, done } = await reader.read();
      // At the end, a blank line dispatches an event the server closed without one (lenient, like browsers).
      parser.feed(done ? `${decoder.decode()}\n\n` : decoder.decode(value, { stream: true }));
      const events = ready;
      ready = [];
      for (const ev of events) {
        if (stopAtDone && ev.data === "[DONE]") return;
        yield ev;
      }
      if (done) return;
    }
  } finally {
    // Early exit (consumer break, [DONE], error): release the body so the connection can close.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
