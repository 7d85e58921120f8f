// The one module that talks to R2 (binding MEDIA). Key layout, public paths, image and audio sniffing by
// magic bytes, and a streaming writer that stores big files with bounded memory (R2 multipart upload).
// See docs/decisions/0005-media-storage-and-embeds.md.
import type { AppLoadContext } from "react-router";
import { INLINE_AUDIO_TYPES, INLINE_IMAGE_TYPES, isValidKey } from "~/lib/media";

export * from "~/lib/media";

export type MediaBucket = R2Bucket;

export function mediaBucket(context: AppLoadContext): MediaBucket {
  const bucket = context.cloudflare.env.MEDIA;
  if (!bucket) throw new Error("Armazenamento indisponível (binding MEDIA ausente)");
  return bucket;
}

// ——— objects ———

export type PutOptions = { contentType: string; originalName?: string };

/** Custom metadata values travel as headers in R2's APIs: keep them ASCII. */
const encodeName = (name: string) => encodeURIComponent(name);

export function originalNameOf(object: Pick<R2Object, "customMetadata" | "key">): string {
  const stored = object.customMetadata?.originalName;
  if (stored) {
    try {
      return decodeURIComponent(stored);
    } catch {
      return stored;
    }
  }
  const last = object.key.split("/").pop() ?? object.key;
  return last.replace(/^\d+_/, "");
}

function metadata(options: PutOptions) {
  return {
    httpMetadata: { contentType: options.contentType },
    customMetadata: options.originalName ? { originalName: encodeName(options.originalName) } : undefined,
  };
}

export async function putObject(bucket: MediaBucket, key: string, body: Uint8Array | ArrayBuffer | string, options: PutOptions) {
  if (!isValidKey(key)) throw new Error(`Chave inválida: ${key}`);
  const stored = await bucket.put(key, body, metadata(options));
  if (!stored) throw new Error("O armazenamento recusou o arquivo");
  return stored;
}

export function getObject(bucket: MediaBucket, key: string, options?: R2GetOptions) {
  return bucket.get(key, options);
}

export function headObject(bucket: MediaBucket, key: string) {
  return bucket.head(key);
}

// ——— serving (the one reader for downloads: conditional requests, byte ranges, dispositions) ———

export type ServeOptions = {
  request: Request;
  /**
   * `image`: displayable image types inline, anything else as an anonymous attachment; `media`: the
   * same, and playable audio inline too (public media: flashcard recordings); `inline`: the stored
   * content type (private audio); `attachment`: always a download named after the original file
   * (`filename*` for non-ASCII names).
   */
  disposition: "image" | "media" | "inline" | "attachment";
  cacheControl: string;
  /** Answer `Range: bytes=…` with 206 (media elements seek with it; Safari insists). */
  ranges?: boolean;
  extraHeaders?: HeadersInit;
};

/** `attachment; filename="ascii"; filename*=UTF-8''…` (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The entity tag of `If-None-Match` (one value; `*` and lists fall back to a full response). */
function ifNoneMatch(header: string | null): string | null {
  const value = header?.trim().replace(/^W\//, "");
  if (!value || value === "*" || value.includes(",")) return null;
  return value.replace(/^"(.*)"$/, "$1");
}

/** A single `bytes=` range (`a-b`, `a-`, `-n`) as R2 takes it; anything else → the whole object. */
export function parseRange(header: string | null): R2Range | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") return { suffix: Number(match[2]) };
  const offset = Number(match[1]);
  if (match[2] === "") return { offset };
  const end = Number(match[2]);
  return end >= offset ? { offset, length: end - offset + 1 } : null;
}

/** Streams a stored object as the response, or null when there is no such object. */
export async function serveObject(bucket: MediaBucket, key: string, options: ServeOptions): Promise<Response | null> {
  if (!isValidKey(key)) return null;
  const { request } = options;
  const etag = ifNoneMatch(request.headers.get("If-None-Match"));
  const range = options.ranges ? parseRange(request.headers.get("Range")) : null;
  const object = await bucket.get(key, range ? { range } : etag ? { onlyIf: { etagDoesNotMatch: etag } } : undefined);
  if (!object) return null;

  const storedType = object.httpMetadata?.contentType || "application/octet-stream";
  const headers = new Headers({
    ETag: object.httpEtag,
    "Cache-Control": options.cacheControl,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "same-site",
    ...Object.fromEntries(new Headers(options.extraHeaders)),
  });
  const displayable = INLINE_IMAGE_TYPES.has(storedType) || (options.disposition === "media" && INLINE_AUDIO_TYPES.has(storedType));
  if ((options.disposition === "image" || options.disposition === "media") && !displayable) {
    headers.set("Content-Type", "application/octet-stream");
    headers.set("Content-Disposition", "attachment");
  } else {
    headers.set("Content-Type", storedType);
    if (options.disposition === "attachment") headers.set("Content-Disposition", attachmentDisposition(originalNameOf(object)));
  }
  if (options.ranges) headers.set("Accept-Ranges", "bytes");
  if (!("body" in object) || !object.body) return new Response(null, { status: 304, headers });

  const served = object.range as { offset?: number; length?: number; suffix?: number } | undefined;
  if (range && served) {
    const offset = served.offset ?? (served.suffix !== undefined ? Math.max(0, object.size - served.suffix) : 0);
    const length = Math.min(served.length ?? object.size - offset, object.size - offset);
    headers.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
    headers.set("Content-Length", String(length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { headers });
}

export async function deleteObjects(bucket: MediaBucket, keys: string[]) {
  const valid = keys.filter(isValidKey);
  if (valid.length > 0) await bucket.delete(valid);
}

/** Deletes without failing the caller (cleanup of replaced or orphaned objects); logs failures. */
export async function deleteQuietly(bucket: MediaBucket, keys: (string | null | undefined)[]) {
  const list = keys.filter((k): k is string => typeof k === "string" && isValidKey(k));
  if (list.length === 0) return;
  try {
    await bucket.delete(list);
  } catch (error) {
    console.error("storage: could not delete", list, error);
  }
}

// ——— streaming writes ———

/** R2 multipart parts must all have the same size (≥ 5 MiB) except the last. */
export const PART_SIZE = 10 * 1024 * 1024;

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Arquivo acima de ${limit} bytes`);
    this.name = "TooLargeError";
  }
}

/**
 * Writes one object from chunks with memory bounded by PART_SIZE: small files become one `put`,
 * bigger ones an R2 multipart upload. Exceeding `maxBytes` aborts (nothing stays stored) and throws
 * TooLargeError.
 */
export class StreamingObjectWriter {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private total = 0;
  private upload: R2MultipartUpload | null = null;
  private parts: R2UploadedPart[] = [];
  private done = false;

  constructor(
    private readonly bucket: MediaBucket,
    readonly key: string,
    private readonly options: PutOptions & { maxBytes: number },
  ) {
    if (!isValidKey(key)) throw new Error(`Chave inválida: ${key}`);
  }

  get size() {
    return this.total;
  }

  async write(chunk: Uint8Array) {
    if (this.done) throw new Error("writer closed");
    this.total += chunk.byteLength;
    if (this.total > this.options.maxBytes) {
      await this.abort();
      throw new TooLargeError(this.options.maxBytes);
    }
    this.chunks.push(chunk);
    this.buffered += chunk.byteLength;
    while (this.buffered >= PART_SIZE) await this.flushPart();
  }

  private take(bytes: number): Uint8Array {
    const out = new Uint8Array(bytes);
    let offset = 0;
    while (offset < bytes) {
      const head = this.chunks[0]!;
      const need = bytes - offset;
      if (head.byteLength <= need) {
        out.set(head, offset);
        offset += head.byteLength;
        this.chunks.shift();
      } else {
        out.set(head.subarray(0, need), offset);
        this.chunks[0] = head.subarray(need);
        offset += need;
      }
    }
    this.buffered -= bytes;
    return out;
  }

  private async flushPart() {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, metadata(this.options));
    const part = await this.upload.uploadPart(this.parts.length + 1, this.take(PART_SIZE));
    this.parts.push(part);
  }

  /** Stores what was written; returns the total size in bytes. */
  async finish(): Promise<number> {
    if (this.done) throw new Error("writer closed");
    this.done = true;
    const rest = this.take(this.buffered);
    try {
      if (!this.upload) {
        await putObject(this.bucket, this.key, rest, this.options);
      } else {
        if (rest.byteLength > 0) this.parts.push(await this.upload.uploadPart(this.parts.length + 1, rest));
        await this.upload.complete(this.parts);
      }
    } catch (error) {
      await this.upload?.abort().catch(() => {});
      throw error;
    }
    return this.total;
  }

  async abort() {
    if (this.done) return;
    this.done = true;
    this.chunks = [];
    this.buffered = 0;
    await this.upload?.abort().catch((error) => console.error("storage: abort failed", error));
  }
}
