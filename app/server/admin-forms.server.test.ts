// The admin forms' check of one file by content (checkUpload): over its kind's limit is "too large"
// whatever the reader kept of it, and a file the reader only counted (no bytes) is never sniffed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UPLOAD_RULES } from "~/lib/admin-forms";
import { checkUpload } from "./admin-forms.server";
import type { BufferedFile } from "./uploads.server";

const PNG = new Uint8Array(readFileSync("tests/fixtures/tiny.png"));
const file = (bytes: Uint8Array | null, size: number): BufferedFile => ({
  field: "image_file",
  filename: "foto.png",
  contentType: "image/png",
  size,
  bytes,
});
const padded = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  return bytes;
};

describe("checkUpload", () => {
  const limit = UPLOAD_RULES.image.maxBytes;

  it("takes a picture up to its limit, by content", () => {
    expect(checkUpload(file(padded(limit), limit), "image")).toEqual({ ok: true, mime: "image/png", ext: "png" });
  });

  it("calls a picture over its limit too large even when its bytes were kept (a reader with a larger limit)", () => {
    expect(checkUpload(file(padded(limit + 1), limit + 1), "image")).toEqual({ ok: false, tooLarge: true });
  });

  it("calls a file whose bytes were dropped too large, without sniffing it, even if its size is under this kind's limit", () => {
    expect(checkUpload(file(null, 1000), "image")).toEqual({ ok: false, tooLarge: true });
    expect(checkUpload(file(null, limit + 1), "image")).toEqual({ ok: false, tooLarge: true });
  });

  it("refuses a small file that is not a picture, as not too large", () => {
    expect(checkUpload(file(new TextEncoder().encode("não é imagem"), 13), "image")).toEqual({ ok: false, tooLarge: false });
  });
});
