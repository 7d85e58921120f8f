// Upload limits and failure paths of the R2 module (storage.server.ts) against Miniflare's R2: the
// byte limit of the streaming writer (exactly the limit passes, one byte more aborts), bounded memory
// (a part leaves as soon as PART_SIZE bytes are buffered), what a closed writer does, and the helpers
// that must never delete or read outside our keys. Calls are observed through a thin wrapper around
// the real bucket; failures are injected there only where R2 itself cannot be made to fail.
import type { AppLoadContext } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { createTestBucket } from "../../tests/integration/harness";
import {
  deleteObjects,
  deleteQuietly,
  mediaBucket,
  originalNameOf,
  PART_SIZE,
  putObject,
  StreamingObjectWriter,
  TooLargeError,
  type MediaBucket,
} from "./storage.server";

const media = await createTestBucket();
const bucket: MediaBucket = media.bucket;
afterAll(() => media.dispose());

type Call = [string, ...unknown[]];
/** The real bucket, with every call recorded (and optionally one method replaced to fail). */
function observed(overrides: Partial<Record<"put" | "delete" | "complete", () => Promise<never> | Promise<null>>> = {}) {
  const calls: Call[] = [];
  const wrapped = {
    put: (...a: Parameters<MediaBucket["put"]>) => (calls.push(["put", a[0]]), overrides.put ? overrides.put() : bucket.put(...a)),
    delete: (keys: string | string[]) => (calls.push(["delete", keys]), overrides.delete ? overrides.delete() : bucket.delete(keys)),
    async createMultipartUpload(...a: Parameters<MediaBucket["createMultipartUpload"]>) {
      calls.push(["createMultipartUpload", a[0]]);
      const upload = await bucket.createMultipartUpload(...a);
      return {
        uploadPart: (n: number, body: Uint8Array) => (calls.push(["uploadPart", n, body.byteLength]), upload.uploadPart(n, body)),
        complete: (parts: R2UploadedPart[]) => (
          calls.push(["complete", parts.length]),
          overrides.complete ? overrides.complete() : upload.complete(parts)
        ),
        abort: () => (calls.push(["abort"]), upload.abort()),
      };
    },
  } as unknown as MediaBucket;
  return { bucket: wrapped, calls };
}
/** Bytes that differ by seed and by offset (every 4 KiB), cheap to make at 10 MiB. */
function pattern(size: number, seed: number) {
  const out = new Uint8Array(size).fill(seed);
  for (let i = 0; i < size; i += 4096) out[i] = (i / 4096 + seed) & 0xff;
  return out;
}
async function stored(key: string) {
  const object = await bucket.get(key);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

describe("StreamingObjectWriter limit", () => {
  it("stores a file of exactly maxBytes", async () => {
    const key = "lesson-materials/limits/1_exact.bin";
    const writer = new StreamingObjectWriter(bucket, key, { contentType: "application/octet-stream", maxBytes: 1000 });
    await writer.write(pattern(600, 1));
    await writer.write(pattern(400, 2));
    expect(writer.size).toBe(1000);
    expect(await writer.finish()).toBe(1000);
    expect((await stored(key))!.byteLength).toBe(1000);
  });

  it("aborts at maxBytes + 1, stores nothing and refuses further writes", async () => {
    const key = "lesson-materials/limits/2_over.bin";
    const { bucket: watched, calls } = observed();
    const writer = new StreamingObjectWriter(watched, key, { contentType: "application/octet-stream", maxBytes: 1000 });
    await writer.write(pattern(1000, 1));
    const error = await writer.write(new Uint8Array(1)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TooLargeError);
    expect((error as TooLargeError).limit).toBe(1000);
    await expect(writer.write(new Uint8Array(1))).rejects.toThrow("writer closed");
    await expect(writer.finish()).rejects.toThrow("writer closed");
    expect(await stored(key)).toBeNull();
    expect(calls.filter(([name]) => name === "put")).toEqual([]);
  });

  it("aborts the multipart upload in progress when the limit is passed", async () => {
    const key = "lesson-materials/limits/3_big-over.bin";
    const { bucket: watched, calls } = observed();
    const writer = new StreamingObjectWriter(watched, key, { contentType: "application/octet-stream", maxBytes: PART_SIZE + 5 });
    await writer.write(new Uint8Array(PART_SIZE));
    await expect(writer.write(new Uint8Array(6))).rejects.toBeInstanceOf(TooLargeError);
    expect(calls.map(([name]) => name)).toEqual(["createMultipartUpload", "uploadPart", "abort"]);
    expect(await stored(key)).toBeNull();
  }, 120_000);
});

describe("StreamingObjectWriter memory and parts", () => {
  it("sends a part as soon as PART_SIZE bytes are buffered, in parts of exactly PART_SIZE, the rest last", async () => {
    const key = "lesson-materials/limits/4_parts.bin";
    const { bucket: watched, calls } = observed();
    const writer = new StreamingObjectWriter(watched, key, { contentType: "application/zip", maxBytes: 3 * PART_SIZE });
    const half = PART_SIZE / 2;
    const chunks = [pattern(half, 1), pattern(half, 2)];
    await writer.write(chunks[0]!);
    expect(calls).toEqual([]);
    await writer.write(chunks[1]!); // exactly PART_SIZE buffered: it leaves now
    expect(calls).toEqual([
      ["createMultipartUpload", key],
      ["uploadPart", 1, PART_SIZE],
    ]);
    chunks.push(pattern(PART_SIZE + 7, 3));
    await writer.write(chunks[2]!);
    expect(calls.at(-1)).toEqual(["uploadPart", 2, PART_SIZE]);
    expect(await writer.finish()).toBe(2 * PART_SIZE + 7);
    expect(calls.slice(-2)).toEqual([
      ["uploadPart", 3, 7],
      ["complete", 3],
    ]);
    const expected = new Uint8Array(2 * PART_SIZE + 7);
    let offset = 0;
    for (const chunk of chunks) {
      expected.set(chunk, offset);
      offset += chunk.byteLength;
    }
    expect(Buffer.compare(Buffer.from((await stored(key))!), Buffer.from(expected))).toBe(0);
  }, 120_000);

  it("completes without an empty last part when the size is a whole number of parts", async () => {
    const key = "lesson-materials/limits/5_whole.bin";
    const { bucket: watched, calls } = observed();
    const writer = new StreamingObjectWriter(watched, key, { contentType: "application/zip", maxBytes: 2 * PART_SIZE });
    await writer.write(new Uint8Array(PART_SIZE));
    expect(await writer.finish()).toBe(PART_SIZE);
    expect(calls.map(([name]) => name)).toEqual(["createMultipartUpload", "uploadPart", "complete"]);
    expect((await stored(key))!.byteLength).toBe(PART_SIZE);
  }, 120_000);

  it("a failing completion aborts the upload and reports the failure", async () => {
    const key = "lesson-materials/limits/6_fails.bin";
    const { bucket: watched, calls } = observed({ complete: () => Promise.reject(new Error("R2 indisponível")) });
    const writer = new StreamingObjectWriter(watched, key, { contentType: "application/zip", maxBytes: 2 * PART_SIZE });
    await writer.write(new Uint8Array(PART_SIZE + 1));
    await expect(writer.finish()).rejects.toThrow("R2 indisponível");
    expect(calls.at(-1)).toEqual(["abort"]);
    expect(await stored(key)).toBeNull();
  }, 120_000);

  it("abort after finish changes nothing", async () => {
    const key = "lesson-materials/limits/7_kept.bin";
    const writer = new StreamingObjectWriter(bucket, key, { contentType: "text/plain", maxBytes: 10 });
    await writer.write(pattern(5, 1));
    await writer.finish();
    await writer.abort();
    expect((await stored(key))!.byteLength).toBe(5);
  });

  it("refuses keys outside our prefixes before writing anything", () => {
    expect(() => new StreamingObjectWriter(bucket, "../escape.bin", { contentType: "text/plain", maxBytes: 10 })).toThrow(/Chave inválida/);
  });
});

describe("storage helpers", () => {
  it("mediaBucket fails clearly without the MEDIA binding", () => {
    const context = { cloudflare: { env: {} } } as unknown as AppLoadContext;
    expect(() => mediaBucket(context)).toThrow("Armazenamento indisponível (binding MEDIA ausente)");
    const withBucket = { cloudflare: { env: { MEDIA: bucket } } } as unknown as AppLoadContext;
    expect(mediaBucket(withBucket)).toBe(bucket);
  });

  it("putObject reports a refused write", async () => {
    const { bucket: refusing } = observed({ put: () => Promise.resolve(null) });
    await expect(putObject(refusing, "modules/refused.png", "x", { contentType: "image/png" })).rejects.toThrow(
      "O armazenamento recusou o arquivo",
    );
  });

  it("deleteObjects deletes only our keys, and calls nothing when none is left", async () => {
    await bucket.put("modules/keep-out.png", "x");
    const { bucket: watched, calls } = observed();
    await deleteObjects(watched, ["../modules/keep-out.png", "elsewhere/x"]);
    expect(calls).toEqual([]);
    await deleteObjects(watched, ["modules/keep-out.png", "../x"]);
    expect(calls).toEqual([["delete", ["modules/keep-out.png"]]]);
    expect(await bucket.head("modules/keep-out.png")).toBeNull();
  });

  it("deleteQuietly never fails its caller", async () => {
    const { bucket: failing, calls } = observed({ delete: () => Promise.reject(new Error("R2 fora do ar")) });
    await expect(deleteQuietly(failing, ["modules/a.png", undefined])).resolves.toBeUndefined();
    expect(calls).toEqual([["delete", ["modules/a.png"]]]);
    await deleteQuietly(failing, [null, "", "../x"]);
    expect(calls).toHaveLength(1);
  });

  it("originalNameOf: the stored name, raw when it cannot be decoded, else the key's file name without its timestamp", () => {
    expect(originalNameOf({ key: "lesson-materials/l/1_x.pdf", customMetadata: { originalName: "Aula%201.pdf" } })).toBe("Aula 1.pdf");
    expect(originalNameOf({ key: "lesson-materials/l/1_x.pdf", customMetadata: { originalName: "100%_certo.pdf" } })).toBe("100%_certo.pdf");
    expect(originalNameOf({ key: "lesson-materials/l/1712345678_Apostila_1.pdf", customMetadata: {} })).toBe("Apostila_1.pdf");
    expect(originalNameOf({ key: "modules/abc.png", customMetadata: undefined as never })).toBe("abc.png");
  });
});
