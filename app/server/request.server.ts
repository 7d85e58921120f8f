// The one way to read a request body in an action or resource route. Every refusal is a Response
// thrown with a 4xx status and a short pt-BR message, checked in this order:
//   content type not accepted → 415 · declared Content-Length over the cap → 413 (before reading) ·
//   more bytes than the cap arrive → 413 (while reading) · unreadable body → 400 · a field sent twice
//   → 400 · a control character in any text → 400 · schema → 400 reply.
// The URL gets the same control-character rule once for every route, in the worker (`refuseControlCharactersInUrl`).
// Files in multipart bodies can be streamed part by part (`readMultipart`) so workerd never holds more
// than the caps in memory. Path ids are checked here too (`requireUuidParam`: malformed → 404), and
// `notFound` is the one 404 of loaders and actions.
import { parseWithZod } from "@conform-to/zod/v4";
import { streamMultipart } from "@web3-storage/multipart-parser";
import type { z } from "zod";
import { isUuid } from "~/lib/ids";

/** Default cap for a form without files: every text field of the app fits with room to spare. */
export const FORM_BYTES = 64 * 1024;
/** Room for the text fields and multipart boundaries around the files of an upload form. */
export const FORM_OVERHEAD_BYTES = 256 * 1024;
/** Each text field of a multipart form (titles, descriptions, embed codes). */
const MAX_TEXT_PART_BYTES = 64 * 1024;

export const BODY_MESSAGES = {
  unsupportedType: "Tipo de conteúdo não suportado. Envie um formulário.",
  tooLarge: "Envio grande demais.",
  unreadable: "Não foi possível ler o envio.",
  invalid: "Dados inválidos.",
  unknownIntent: "Ação inválida.",
  duplicatedField: "Campo repetido no envio.",
  controlCharacter: "O envio contém caracteres inválidos.",
} as const;

/**
 * Control characters no form or script of the app sends: Postgres refuses NUL in text outright (a 500 if it got that
 * far), and the others are only ever a forged request. Tab, line feed and carriage return are a textarea's own.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const hasControlCharacters = (text: string) => CONTROL_CHARACTERS.test(text);

const controlCharacterRefusal = () => refusal(400, BODY_MESSAGES.controlCharacter, "control_character");

/** Every name and text value of a form (file names included): a control character in any of them → 400. */
function refuseControlCharacters(form: FormData) {
  for (const [name, value] of form) {
    const text = typeof value === "string" ? value : value.name;
    if (hasControlCharacters(name) || hasControlCharacters(text)) throw controlCharacterRefusal();
  }
}

/** The same for every string (and key) of a parsed JSON value. */
function refuseControlCharactersInJson(value: unknown): void {
  if (typeof value === "string") {
    if (hasControlCharacters(value)) throw controlCharacterRefusal();
  } else if (Array.isArray(value)) {
    for (const item of value) refuseControlCharactersInJson(item);
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (hasControlCharacters(key)) throw controlCharacterRefusal();
      refuseControlCharactersInJson(item);
    }
  }
}

/**
 * The URL's path (decoded, as route params see it) and query: a control character in either is a 400 before any route
 * runs (the worker calls this for every request), so no loader has to remember it. Null when the URL is fine.
 */
export function refuseControlCharactersInUrl(request: Request): Response | null {
  const url = new URL(request.url);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = url.pathname; // a malformed escape is the router's 404 to answer, not ours
  }
  if (hasControlCharacters(path)) return controlCharacterRefusal();
  for (const [name, value] of url.searchParams) {
    if (hasControlCharacters(name) || hasControlCharacters(value)) return controlCharacterRefusal();
  }
  return null;
}

export type BodyKind = "urlencoded" | "multipart" | "json" | "text";

/** A JSON refusal `{ error, code }` with the given status (thrown by the helpers below). */
export function refusal(status: number, message: string, code = statusCode(status), headers?: HeadersInit): Response {
  const response = Response.json({ error: message, code }, { status, headers });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

function statusCode(status: number) {
  return status === 413 ? "too_large" : status === 415 ? "unsupported_type" : status === 404 ? "not_found" : "bad_request";
}

/**
 * The 404 of every loader and action (thrown): `{ error, code }` like any refusal, so error boundaries
 * read one shape. `code` names a kind of missing thing when a boundary shows it its own way.
 */
export const notFound = (message = "Não encontrado.", code = "not_found") => refusal(404, message, code);

/** The pt-BR message of a refusal thrown by the helpers here (for callers that answer in their own shape). */
export async function refusalMessage(response: Response, fallback: string = BODY_MESSAGES.unreadable): Promise<string> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === "string" ? body.error : fallback;
}

/** The answer of a POST-only endpoint (e.g. /api/errors, the Stripe webhook) to any other method. */
export const methodNotAllowed = () =>
  Response.json({ error: "Método não permitido." }, { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } });

/** Thrown while counting bytes; turned into a 413 by the readers. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Corpo da requisição acima de ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

export function bodyKind(request: Request): BodyKind | null {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return "urlencoded";
  if (type === "multipart/form-data") return "multipart";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "text/plain") return "text";
  return null;
}

/** Content type and declared length, before a byte is read. */
export function checkBodyHeaders(request: Request, options: { accept: readonly BodyKind[]; maxBytes: number }): BodyKind {
  const kind = bodyKind(request);
  if (!kind || !options.accept.includes(kind)) throw refusal(415, BODY_MESSAGES.unsupportedType);
  if (kind === "multipart" && !/boundary=/i.test(request.headers.get("Content-Type") ?? "")) {
    throw refusal(400, BODY_MESSAGES.unreadable);
  }
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > options.maxBytes) throw refusal(413, BODY_MESSAGES.tooLarge);
  return kind;
}

/**
 * The body as a stream that errors (BodyTooLargeError) as soon as more than `maxBytes` arrive, and a
 * `cancel` that releases the rest of the body (a reader that gives up half-way must say so, or the
 * runtime is left holding a half-read request).
 */
function countedBody(body: ReadableStream<Uint8Array>, maxBytes: number) {
  const reader = body.getReader();
  let total = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        controller.error(new BodyTooLargeError(maxBytes));
        return;
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream, cancel: () => reader.cancel().catch(() => {}) };
}

/** Reads the whole body, at most `maxBytes` (413 past it, 400 when the stream breaks). */
async function readAll(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const counted = countedBody(request.body, maxBytes);
  try {
    return new Uint8Array(await new Response(counted.stream).arrayBuffer());
  } catch (error) {
    await counted.cancel();
    if (error instanceof BodyTooLargeError) throw refusal(413, BODY_MESSAGES.tooLarge);
    throw refusal(400, BODY_MESSAGES.unreadable);
  }
}

export type ReadOptions = {
  /** Byte cap for the whole body (default 64 KB). */
  maxBytes?: number;
  /** Body kinds this route takes (default: url-encoded and multipart forms). */
  accept?: readonly BodyKind[];
};

/** A form body (url-encoded or multipart), buffered within the cap. Any other content type → 415. */
export async function readFormData(request: Request, options: ReadOptions = {}): Promise<FormData> {
  const maxBytes = options.maxBytes ?? FORM_BYTES;
  const contentType = request.headers.get("Content-Type")!;
  checkBodyHeaders(request, { accept: options.accept ?? ["urlencoded", "multipart"], maxBytes });
  const bytes = await readAll(request, maxBytes);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    throw refusal(400, BODY_MESSAGES.unreadable);
  }
  refuseRepeatedNames(form.keys());
  refuseControlCharacters(form);
  return form;
}

/**
 * No form of the app sends a name twice (no multi-selects, one file per input): a repeated field is a
 * forged body, refused before any schema sees an array where it expects one value.
 */
function refuseRepeatedNames(names: Iterable<string>) {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw refusal(400, BODY_MESSAGES.duplicatedField, "duplicated_field");
    seen.add(name);
  }
}

/** Raw bytes of a body of one of the accepted kinds (e.g. JSON reports, sendBeacon's text/plain). */
export async function readBytes(request: Request, options: Required<ReadOptions>): Promise<{ kind: BodyKind; bytes: Uint8Array<ArrayBuffer> }> {
  const kind = checkBodyHeaders(request, options);
  return { kind, bytes: await readAll(request, options.maxBytes) };
}

/**
 * A JSON body (application/json) within `maxBytes`, validated by `schema`: 415, 413 and 400 (unreadable) as for any
 * body, and 400 `invalid` when the JSON does not match. For endpoints that scripts call (not forms).
 */
export async function readJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  maxBytes: number = FORM_BYTES,
): Promise<z.output<Schema>> {
  const { bytes } = await readBytes(request, { maxBytes, accept: ["json"] });
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw refusal(400, BODY_MESSAGES.unreadable);
  }
  refuseControlCharactersInJson(value);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw refusal(400, BODY_MESSAGES.invalid, "invalid");
  return parsed.data;
}

/** Reads a form and validates it with the route's zod schema (conform). Refusals of the body are thrown. */
export async function parseForm<Schema extends z.ZodType>(request: Request, schema: Schema, options: ReadOptions = {}) {
  const formData = await readFormData(request, options);
  return parseWithZod(formData, { schema });
}

/** One part of a multipart body, its bytes still streaming. */
export type MultipartPart = { name: string; filename?: string; contentType: string; data: AsyncIterable<Uint8Array> };
export type FileHandler = (part: MultipartPart) => Promise<string | undefined>;

/**
 * The multipart parser Remix v2 shipped (React Router 7 has none), part by part: each part's value, from
 * `handlePart`, goes into the FormData. A filename keeps only its last segment (RFC 7578 §4.2).
 */
async function parseMultipartFormData(request: { headers: Headers; body: ReadableStream<Uint8Array> }, handlePart: FileHandler) {
  const [type, boundary] = (request.headers.get("Content-Type") ?? "").split(/\s*;\s*boundary=/);
  if (!boundary || type !== "multipart/form-data") throw new TypeError("Could not parse content as FormData.");
  const form = new FormData();
  for await (const part of streamMultipart(request.body, boundary) as AsyncIterable<MultipartPart & { done?: boolean }>) {
    if (part.done) break;
    if (typeof part.filename === "string") part.filename = part.filename.split(/[/\\]/).pop();
    const value = await handlePart(part);
    if (value !== undefined && value !== null) form.append(part.name, value);
  }
  return form;
}

/**
 * Streams a multipart form: text fields go into the FormData (each ≤ 64 KB), file parts to `onFile`
 * (which must consume `part.data`). A url-encoded body (no files) is read as a plain form.
 * Past `maxBytes` it throws BodyTooLargeError, so callers can clean up what they stored; a body that
 * is not a form is refused (415), a broken one too (400), and so is a part name sent twice (400, once
 * the whole body is read).
 */
export async function readMultipart(request: Request, maxBytes: number, onFile: FileHandler): Promise<FormData> {
  const kind = checkBodyHeaders(request, { accept: ["urlencoded", "multipart"], maxBytes });
  if (!request.body) return new FormData();
  if (kind === "urlencoded") return readFormData(request, { maxBytes: Math.min(maxBytes, FORM_BYTES) });
  const counted = countedBody(request.body, maxBytes);
  const limited = { headers: request.headers, body: counted.stream };
  const ownErrors = new Set<unknown>(); // what the file handler threw passes through unchanged
  const names: string[] = [];
  let oversizedText = false;
  let controlInFileName = false;
  try {
    const form = await parseMultipartFormData(limited, async (part) => {
      names.push(part.name);
      if (part.filename && hasControlCharacters(part.filename)) controlInFileName = true;
      if (typeof part.filename === "string") {
        try {
          const value = await onFile(part);
          await drain(part.data);
          return value;
        } catch (error) {
          ownErrors.add(error);
          throw error;
        }
      }
      const text = await readText(part.data);
      if (text === null) oversizedText = true;
      return text ?? "";
    });
    // Refused only once the parser is done: stopping it half-way leaves the runtime a half-read request.
    if (oversizedText) throw new BodyTooLargeError(MAX_TEXT_PART_BYTES);
    refuseRepeatedNames(names);
    if (controlInFileName || names.some(hasControlCharacters)) throw controlCharacterRefusal();
    refuseControlCharacters(form);
    return form;
  } catch (error) {
    await counted.cancel();
    if (ownErrors.has(error) || error instanceof BodyTooLargeError || error instanceof Response) throw error;
    throw new UnreadableBodyError(error);
  }
}

/** A multipart body that could not be parsed (callers clean up, then answer 400). */
export class UnreadableBodyError extends Error {
  constructor(cause: unknown) {
    super(BODY_MESSAGES.unreadable, { cause });
    this.name = "UnreadableBodyError";
  }
}

/** A text field; past 64 KB the rest of the part is read and dropped (null), so the parser can finish. */
async function readText(data: AsyncIterable<Uint8Array>): Promise<string | null> {
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for await (const chunk of data) {
    size += chunk.byteLength;
    if (size <= MAX_TEXT_PART_BYTES) text += decoder.decode(chunk, { stream: true });
  }
  return size <= MAX_TEXT_PART_BYTES ? text + decoder.decode() : null;
}

/** Reads what is left of a part (the parser needs every part consumed to reach the next). */
export async function drain(data: AsyncIterable<Uint8Array>) {
  for await (const _chunk of data) {
    // discard
  }
}

/**
 * A path id that must be a UUID: anything else is a 404 before any other work — `notFound(message)`,
 * or the route's own 404 when `missing` is a function (e.g. a code its error boundary branches on).
 */
export function requireUuidParam(
  params: Record<string, string | undefined>,
  name: string,
  missing: string | (() => Response) = "Não encontrado.",
): string {
  const value = params[name];
  if (value && isUuid(value)) return value.toLowerCase();
  throw typeof missing === "function" ? missing() : notFound(missing);
}
