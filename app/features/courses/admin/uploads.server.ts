// Reading upload forms inside the worker without ever holding more than the limits in memory:
// the declared Content-Length is checked before any byte is read, and bytes are counted while reading
// (chunked bodies, lying clients). Files are streamed part by part (Remix's multipart parser).
import { unstable_parseMultipartFormData, type UploadHandlerPart } from "@remix-run/cloudflare";

/** Room for the text fields and multipart boundaries around the files. */
export const FORM_OVERHEAD_BYTES = 256 * 1024;
/** Each text field of an upload form (titles, descriptions, embed codes). */
const MAX_TEXT_PART_BYTES = 64 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Corpo da requisição acima de ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** True when the request declares a body bigger than `maxBytes` (checked before reading anything). */
export function declaresTooLarge(request: Request, maxBytes: number): boolean {
  const declared = Number(request.headers.get("Content-Length"));
  return Number.isFinite(declared) && declared > maxBytes;
}

export const isMultipart = (request: Request) =>
  (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");

/** The request body, erroring as soon as more than `maxBytes` arrive. */
function countedBody(request: Request, maxBytes: number): ReadableStream<Uint8Array> {
  let total = 0;
  return request.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > maxBytes) controller.error(new BodyTooLargeError(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
}

export type FileHandler = (part: UploadHandlerPart) => Promise<string | undefined>;

/**
 * Parses a multipart form: text fields go into the FormData (each ≤ 64 KB), file parts to `onFile`
 * (which must consume `part.data`). A urlencoded body is read as usual (it carries no files).
 * Throws BodyTooLargeError past `maxBodyBytes`.
 */
export async function readForm(request: Request, maxBodyBytes: number, onFile: FileHandler): Promise<FormData> {
  if (declaresTooLarge(request, maxBodyBytes)) throw new BodyTooLargeError(maxBodyBytes);
  if (!request.body) return new FormData();
  if (!isMultipart(request)) {
    const text = await new Response(countedBody(request, Math.min(maxBodyBytes, 1024 * 1024))).text();
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(text)) form.append(name, value);
    return form;
  }
  const limited = { headers: request.headers, body: countedBody(request, maxBodyBytes) } as unknown as Request;
  return unstable_parseMultipartFormData(limited, async (part) => {
    if (typeof part.filename === "string") {
      const value = await onFile(part);
      await drain(part.data);
      return value;
    }
    return readText(part.data);
  });
}

async function readText(data: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for await (const chunk of data) {
    size += chunk.byteLength;
    if (size > MAX_TEXT_PART_BYTES) throw new BodyTooLargeError(MAX_TEXT_PART_BYTES);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** Reads what is left of a part (the parser needs every part consumed to reach the next). */
export async function drain(data: AsyncIterable<Uint8Array>) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  for await (const _ of data);
}

export type BufferedFile = {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  /** The bytes, or null when the file was bigger than the limit (then only counted, never kept). */
  bytes: Uint8Array | null;
};

/**
 * Buffers the files of `fields` up to `maxFileBytes` each; bigger files are counted and dropped.
 * An empty file input (no file chosen) yields nothing.
 */
export async function readFormWithFiles(
  request: Request,
  options: { fields: readonly string[]; maxFileBytes: number; maxBodyBytes: number },
): Promise<{ formData: FormData; files: Map<string, BufferedFile> }> {
  const files = new Map<string, BufferedFile>();
  const formData = await readForm(request, options.maxBodyBytes, async (part) => {
    if (!options.fields.includes(part.name) || files.has(part.name)) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of part.data) {
      size += chunk.byteLength;
      if (size <= options.maxFileBytes) chunks.push(chunk);
      else chunks.length = 0;
    }
    if (size === 0 && !part.filename) return undefined;
    let bytes: Uint8Array | null = null;
    if (size <= options.maxFileBytes) {
      bytes = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    files.set(part.name, { field: part.name, filename: part.filename ?? "", contentType: part.contentType, size, bytes });
    return undefined;
  });
  return { formData, files };
}
