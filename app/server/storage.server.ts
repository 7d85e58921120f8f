// The one module that talks to R2 (binding MEDIA). Key layout, public paths, image sniffing by magic
// bytes, and a streaming writer that stores big files with bounded memory (R2 multipart upload).
// See docs/decisions/0005-media-storage-and-embeds.md.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { isValidKey } from "~/lib/media";

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
