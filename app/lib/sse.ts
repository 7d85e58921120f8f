// Incremental Server-Sent Events parser (shared: the AI providers read upstream streams with it, the chat island reads ours) (https://html.spec.whatwg.org/multipage/server-sent-events.html).
// Chunk boundaries may fall anywhere: mid-line, between CR and LF, inside a UTF-8 character.

export interface SseEvent {
  event?: string;
  data: string;
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
  let pending = ""; // text of an unfinished line
  let skipLeadingLf = false; // the previous chunk ended with CR; a following LF belongs to it
  let firstLine = true;
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let done = false;

  const dispatch = (): SseEvent | null => {
    if (data.length === 0) {
      event = undefined;
      return null;
    }
    const out: SseEvent = { data: data.join("\n") };
    if (event !== undefined) out.event = event;
    if (id !== undefined) out.id = id;
    data = [];
    event = undefined;
    return out;
  };

  /** Handles one complete line; returns an event when the line is blank and one is ready. */
  const line = (raw: string): SseEvent | null => {
    let text = raw;
    if (firstLine) {
      firstLine = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text === "") return dispatch();
    if (text.startsWith(":")) return null; // comment / keep-alive
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
    // "retry" and unknown fields are ignored
    return null;
  };

  function* lines(text: string): Generator<SseEvent> {
    let start = 0;
    let i = 0;
    if (skipLeadingLf && text.startsWith("\n")) start = i = 1;
    skipLeadingLf = false;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch !== "\n" && ch !== "\r") continue;
      const ev = line(pending + text.slice(start, i));
      pending = "";
      if (ch === "\r") {
        if (i + 1 < text.length) {
          if (text[i + 1] === "\n") i++;
        } else {
          skipLeadingLf = true;
        }
      }
      start = i + 1;
      if (ev) yield ev;
    }
    pending += text.slice(start);
  }

  try {
    while (!done) {
      const { value, done: streamDone } = await reader.read();
      const text = streamDone ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const ev of lines(text)) {
        if (stopAtDone && ev.data === "[DONE]") {
          done = true;
          break;
        }
        yield ev;
      }
      if (streamDone && !done) {
        // Be lenient with servers that close without the final blank line.
        if (pending !== "") line(pending);
        pending = "";
        const last = dispatch();
        if (last && !(stopAtDone && last.data === "[DONE]")) yield last;
        done = true;
      }
    }
  } finally {
    // Early exit (consumer break, [DONE], error): release the body so the connection can close.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
