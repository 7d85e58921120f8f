import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isValidKey, keyFromPublicUrl, materialKey, publicPath, sanitizeFileName, sniffAudio, sniffImage, uploadKey } from "./media";

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("sniffImage (magic bytes, not the declared type)", () => {
  it("recognises JPEG, PNG, GIF, WebP and AVIF", () => {
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, "JFIF"))).toEqual({ mime: "image/jpeg", ext: "jpg" });
    expect(sniffImage(new Uint8Array(readFileSync("tests/fixtures/tiny.png")))).toEqual({ mime: "image/png", ext: "png" });
    expect(sniffImage(bytes("GIF89a", 1, 0, 1, 0))).toEqual({ mime: "image/gif", ext: "gif" });
    expect(sniffImage(bytes("GIF87a", 1, 0, 1, 0))).toEqual({ mime: "image/gif", ext: "gif" });
    expect(sniffImage(bytes("RIFF", 0x24, 0, 0, 0, "WEBPVP8 "))).toEqual({ mime: "image/webp", ext: "webp" });
    expect(sniffImage(bytes(0, 0, 0, 0x20, "ftypavif", 0, 0, 0, 0, "avifmif1miaf"))).toEqual({ mime: "image/avif", ext: "avif" });
    // AVIF announced only among the compatible brands
    expect(sniffImage(bytes(0, 0, 0, 0x1c, "ftypmif1", 0, 0, 0, 0, "mif1avifmiaf"))).toEqual({ mime: "image/avif", ext: "avif" });
  });

  it("refuses text named .png, SVG, HEIC, PDF, truncated headers and empty files", () => {
    expect(sniffImage(new Uint8Array(readFileSync("tests/fixtures/fake-image.png")))).toBeNull();
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull();
    expect(sniffImage(bytes('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(sniffImage(bytes(0, 0, 0, 0x18, "ftypheic", 0, 0, 0, 0, "mif1heic"))).toBeNull();
    expect(sniffImage(new Uint8Array(readFileSync("tests/fixtures/apostila-aula.pdf")))).toBeNull();
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull();
    expect(sniffImage(bytes("RIFF", 0, 0, 0, 0, "WAVE"))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });
});

describe("sniffAudio (magic bytes, not the declared type)", () => {
  const ebml = (docType: string) =>
    bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1, 0x42, 0x82, 0x80 | docType.length, docType, 0x42, 0x87);

  it("recognises MP3 (ID3 tag or a bare Layer III frame), WAV, Ogg, M4A and WebM", () => {
    expect(sniffAudio(new Uint8Array(readFileSync("content/flashcards/audio/acoes-clap.mp3")))).toEqual({ mime: "audio/mpeg", ext: "mp3" });
    expect(sniffAudio(bytes("ID3", 4, 0, 0, 0, 0, 0, 0x21))).toEqual({ mime: "audio/mpeg", ext: "mp3" });
    expect(sniffAudio(bytes(0xff, 0xfb, 0x90, 0x64))).toEqual({ mime: "audio/mpeg", ext: "mp3" }); // MPEG-1 Layer III, 128 kbps
    expect(sniffAudio(bytes("RIFF", 0x24, 0, 0, 0, "WAVEfmt "))).toEqual({ mime: "audio/wav", ext: "wav" });
    expect(sniffAudio(bytes("OggS", 0, 2, 0, 0, 0, 0))).toEqual({ mime: "audio/ogg", ext: "ogg" });
    expect(sniffAudio(bytes(0, 0, 0, 0x20, "ftypM4A ", 0, 0, 0, 0, "M4A mp42isom", 0, 0, 0, 0))).toEqual({ mime: "audio/mp4", ext: "m4a" });
    // M4A announced only among the compatible brands (iPhone voice memos)
    expect(sniffAudio(bytes(0, 0, 0, 0x1c, "ftypmp42", 0, 0, 0, 0, "isomM4A mp42"))).toEqual({ mime: "audio/mp4", ext: "m4a" });
    expect(sniffAudio(ebml("webm"))).toEqual({ mime: "audio/webm", ext: "webm" });
  });

  it("refuses text named .mp3, images, video containers, AAC, executables, truncated headers and empty files", () => {
    expect(sniffAudio(bytes("Isto não é um áudio, é texto com nome de .mp3"))).toBeNull();
    expect(sniffAudio(new Uint8Array(readFileSync("tests/fixtures/tiny.png")))).toBeNull();
    expect(sniffAudio(new Uint8Array(readFileSync("tests/fixtures/fake-image.png")))).toBeNull();
    expect(sniffAudio(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, "JFIF"))).toBeNull(); // JPEG's FF D8 is no frame sync
    expect(sniffAudio(bytes("RIFF", 0x24, 0, 0, 0, "WEBPVP8 "))).toBeNull();
    expect(sniffAudio(bytes("RIFF", 0x24, 0, 0, 0, "AVI LIST"))).toBeNull();
    expect(sniffAudio(bytes(0, 0, 0, 0x18, "ftypisom", 0, 0, 0, 0, "isomavc1"))).toBeNull(); // an MP4 video
    expect(sniffAudio(bytes(0, 0, 0, 0x20, "ftypavif", 0, 0, 0, 0, "avifmif1miaf"))).toBeNull();
    expect(sniffAudio(ebml("matroska"))).toBeNull();
    expect(sniffAudio(bytes(0xff, 0xf1, 0x50, 0x80))).toBeNull(); // AAC (ADTS): layer 00
    expect(sniffAudio(bytes(0xff, 0xfb, 0xf0, 0x64))).toBeNull(); // bitrate index 1111 is invalid
    expect(sniffAudio(bytes(0xff, 0xfb, 0x9c, 0x64))).toBeNull(); // sampling rate 11 is reserved
    expect(sniffAudio(bytes(0xff, 0xeb, 0x90, 0x64))).toBeNull(); // version 01 is reserved
    expect(sniffAudio(bytes("MZ", 0x90, 0, 3, 0, 0, 0, 4, 0))).toBeNull();
    expect(sniffAudio(bytes("ID3"))).toBeNull();
    expect(sniffAudio(bytes("OggS"))).toBeNull();
    expect(sniffAudio(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffAudio(new Uint8Array())).toBeNull();
  });
});

describe("keys and paths", () => {
  it("sanitises file names: anything but letters, digits, dot and hyphen becomes _", () => {
    expect(sanitizeFileName("Apostila Aula 1 (versão final).pdf")).toBe("Apostila_Aula_1__vers_o_final_.pdf");
    expect(sanitizeFileName("../../etc/passwd")).toBe(".._.._etc_passwd");
    expect(sanitizeFileName("")).toBe("arquivo");
  });

  it("builds the material key {lessonId}/{timestamp}_{safeName} under lesson-materials/", () => {
    expect(materialKey("abc", "Lista de exercícios.docx", 1700000000000)).toBe("lesson-materials/abc/1700000000000_Lista_de_exerc_cios.docx");
    expect(uploadKey("modules", "png", "id-1")).toBe("modules/id-1.png");
    expect(uploadKey("flashcards", "mp3", "id-2")).toBe("flashcards/id-2.mp3");
  });

  it("accepts only our prefixes and plain segments", () => {
    expect(isValidKey("modules/a.png")).toBe(true);
    expect(isValidKey("lesson-materials/l/1_a.pdf")).toBe(true);
    expect(isValidKey("flashcards/a.m4a")).toBe(true);
    expect(isValidKey("modules")).toBe(false);
    expect(isValidKey("secrets/a.png")).toBe(false);
    expect(isValidKey("modules/../x")).toBe(false);
    expect(isValidKey("modules//x")).toBe(false);
    expect(isValidKey("modules/a\\b")).toBe(false);
  });

  it("maps public URLs back to keys only when they point to our storage", () => {
    expect(publicPath("lesson-materials/l/1_a b.pdf")).toBe("/media/lesson-materials/l/1_a%20b.pdf");
    expect(keyFromPublicUrl("/media/lesson-materials/l/1_a%20b.pdf")).toBe("lesson-materials/l/1_a b.pdf");
    expect(keyFromPublicUrl("/media/modules/x.png?v=1")).toBe("modules/x.png");
    expect(keyFromPublicUrl("https://nika.app/media/modules/x.png", "https://nika.app")).toBe("modules/x.png");
    expect(keyFromPublicUrl("https://evil.example/media/modules/x.png", "https://nika.app")).toBeNull();
    expect(keyFromPublicUrl("https://x.supabase.co/storage/v1/object/public/lesson-materials/l/a.pdf", "https://nika.app")).toBeNull();
    expect(keyFromPublicUrl("//evil.example/media/modules/x.png")).toBeNull();
    expect(keyFromPublicUrl("/media/modules/..%2F..%2Fx")).toBeNull();
    expect(keyFromPublicUrl("/media/%E0%A4%A")).toBeNull();
    expect(keyFromPublicUrl("/other/modules/x.png")).toBeNull();
    expect(keyFromPublicUrl(null)).toBeNull();
  });
});
