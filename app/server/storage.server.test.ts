// The R2 calls against a real R2 implementation (Miniflare's, as wrangler dev uses), not a mock.
import { afterAll, describe, expect, it } from "vitest";
import { createTestBucket } from "../../tests/integration/harness";
import { deleteQuietly, originalNameOf, PART_SIZE, putObject, StreamingObjectWriter, TooLargeError, type MediaBucket } from "./storage.server";

const media = await createTestBucket();
const bucket: MediaBucket = media.bucket;
afterAll(() => media.dispose());

describe("storage on R2", () => {
  it("puts with content type and the original name, gets it back, deletes it", async () => {
    await putObject(bucket, "modules/a.png", new Uint8Array([1, 2, 3]), { contentType: "image/png", originalName: "Módulo ção.png" });
    const object = await bucket.get("modules/a.png");
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(originalNameOf(object!)).toBe("Módulo ção.png");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    await deleteQuietly(bucket, ["modules/a.png", null, "../nope"]);
    expect(await bucket.head("modules/a.png")).toBeNull();
  });

  it("refuses keys outside our prefixes", async () => {
    await expect(putObject(bucket, "../x", "a", { contentType: "text/plain" })).rejects.toThrow(/Chave inválida/);
  });

  it("streams a small file as one object", async () => {
    const writer = new StreamingObjectWriter(bucket, "lesson-materials/l1/1_small.pdf", {
      contentType: "application/pdf",
      originalName: "small.pdf",
      maxBytes: 100,
    });
    await writer.write(new Uint8Array(40).fill(7));
    await writer.write(new Uint8Array(10).fill(8));
    expect(await writer.finish()).toBe(50);
    const object = await bucket.get("lesson-materials/l1/1_small.pdf");
    expect(object?.size).toBe(50);
    expect(object?.httpMetadata?.contentType).toBe("application/pdf");
  });

  it("streams a big file as a multipart upload with equal parts", async () => {
    const writer = new StreamingObjectWriter(bucket, "lesson-materials/l1/2_big.zip", {
      contentType: "application/zip",
      maxBytes: 3 * PART_SIZE,
    });
    const chunk = new Uint8Array(1024 * 1024 + 3).fill(1); // odd sizes: parts are cut to PART_SIZE
    let total = 0;
    while (total + chunk.byteLength <= PART_SIZE * 2 + 5000) {
      await writer.write(chunk);
      total += chunk.byteLength;
    }
    expect(await writer.finish()).toBe(total);
    const head = await bucket.head("lesson-materials/l1/2_big.zip");
    expect(head?.size).toBe(total);
  });

  it("aborts past the limit and leaves nothing stored", async () => {
    const writer = new StreamingObjectWriter(bucket, "lesson-materials/l2/3_huge.bin", {
      contentType: "application/octet-stream",
      maxBytes: PART_SIZE + 10,
    });
    await writer.write(new Uint8Array(PART_SIZE)); // one part already uploaded
    await expect(writer.write(new Uint8Array(11))).rejects.toBeInstanceOf(TooLargeError);
    expect(await media.keys("lesson-materials/")).not.toContain("lesson-materials/l2/3_huge.bin");
    expect(await bucket.head("lesson-materials/l2/3_huge.bin")).toBeNull();
  });
});
