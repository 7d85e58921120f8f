// The upload reader of the admin forms: files buffered up to their limit, bigger ones counted and
// dropped (the form answers 413), empty file inputs ignored, text fields kept — with real multipart
// bodies as a browser sends them.
import { describe, expect, it } from "vitest";
import { readFormWithFiles } from "./uploads.server";

const bytes = (size: number, seed = 1) => new Uint8Array(size).map((_, i) => (i * 7 + seed) & 0xff);
function multipart(fields: [string, string | File][]) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return new Request("http://nika.test/courses/modules/x/edit", { method: "POST", body: form });
}
/** A body as a browser writes it (an empty file input is a file part with `filename=""` and no bytes). */
function raw(parts: [name: string, filename: string, content: string][]) {
  const body = parts.map(
    ([name, filename, content]) =>
      `--b\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n`,
  );
  return new Request("http://nika.test/courses/modules/x/edit", {
    method: "POST",
    body: `${body.join("")}--b--\r\n`,
    headers: { "Content-Type": "multipart/form-data; boundary=b" },
  });
}
/** The same request, its body arriving in slices of `size` bytes (as over a slow network). */
async function inSlices(request: Request, size: number) {
  const bytes = new Uint8Array(await request.arrayBuffer());
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += size)));
    },
  });
  return new Request(request.url, { method: "POST", body, headers: request.headers, duplex: "half" } as RequestInit);
}
const read = (request: Request, maxFileBytes = 100, maxBodyBytes = 10_000) =>
  readFormWithFiles(request, { fields: ["image", "banner"], maxFileBytes, maxBodyBytes });

describe("readFormWithFiles", () => {
  it("keeps a file of exactly the limit, byte for byte, with its name and type", async () => {
    const { files } = await read(multipart([["image", new File([bytes(100)], "foto.png", { type: "image/png" })]]));
    const image = files.get("image")!;
    expect({ ...image, bytes: undefined }).toEqual({
      field: "image",
      filename: "foto.png",
      contentType: "image/png",
      size: 100,
      bytes: undefined,
    });
    expect(image.bytes).toEqual(bytes(100));
  });

  it("counts a file one byte over the limit but keeps none of its bytes", async () => {
    const { files } = await read(multipart([["image", new File([bytes(101)], "grande.png", { type: "image/png" })]]));
    expect(files.get("image")).toMatchObject({ size: 101, bytes: null });
  });

  it("applies each field's own limit (a picture of 5 MB, a recording of 2 MB)", async () => {
    const { files } = await readFormWithFiles(
      multipart([
        ["image_file", new File([bytes(150)], "foto.png", { type: "image/png" })],
        ["audio_file", new File([bytes(150)], "voz.mp3", { type: "audio/mpeg" })],
      ]),
      { fields: ["image_file", "audio_file"], maxFileBytes: { image_file: 200, audio_file: 100 }, maxBodyBytes: 10_000 },
    );
    expect(files.get("image_file")).toMatchObject({ size: 150 });
    expect(files.get("image_file")!.bytes).toEqual(bytes(150));
    expect(files.get("audio_file")).toMatchObject({ size: 150, bytes: null });
  });

  it("joins a file that arrives in many chunks", async () => {
    const big = bytes(200_000, 3);
    const request = await inSlices(multipart([["banner", new File([big], "faixa.webp", { type: "image/webp" })]]), 16 * 1024);
    const { files } = await read(request, 250_000, 300_000);
    expect(files.get("banner")!.size).toBe(200_000);
    expect(Buffer.compare(Buffer.from(files.get("banner")!.bytes!), Buffer.from(big))).toBe(0);
  });

  it("ignores an empty file input (no name, no bytes, as a browser sends it), but keeps a named empty file", async () => {
    const { files } = await read(
      raw([
        ["image", "", ""],
        ["banner", "vazio.png", ""],
      ]),
    );
    expect(files.has("image")).toBe(false);
    expect(files.get("banner")).toMatchObject({ filename: "vazio.png", size: 0 });
    expect(files.get("banner")!.bytes).toEqual(new Uint8Array(0));
  });

  it("keeps a file with bytes whose name comes to nothing (a path like 'pasta/' is cut to its last part): it gets checked like any file", async () => {
    const { files } = await read(raw([["image", "pasta/", "GIF89a"]]));
    expect(files.get("image")).toMatchObject({ filename: "", size: 6 });
    expect(new TextDecoder().decode(files.get("image")!.bytes!)).toBe("GIF89a");
  });

  it("reads only the listed fields and the text fields", async () => {
    const { files, formData } = await read(
      multipart([
        ["title", "Módulo 1"],
        ["image", new File([bytes(10, 1)], "primeira.png", { type: "image/png" })],
        ["other", new File([bytes(30)], "outro.png", { type: "image/png" })],
      ]),
    );
    expect([...files.keys()]).toEqual(["image"]);
    expect(files.get("image")).toMatchObject({ filename: "primeira.png", size: 10 });
    expect(formData.get("title")).toBe("Módulo 1");
  });

  it("refuses a file field sent twice (no form repeats a name)", async () => {
    const twice = multipart([
      ["image", new File([bytes(10, 1)], "primeira.png", { type: "image/png" })],
      ["image", new File([bytes(20, 2)], "segunda.png", { type: "image/png" })],
    ]);
    await expect(read(twice)).rejects.toMatchObject({ status: 400 });
  });

  it("stops reading a body past its cap", async () => {
    const request = multipart([["image", new File([bytes(5000)], "x.png", { type: "image/png" })]]);
    await expect(read(request, 10_000, 4000)).rejects.toMatchObject({ name: "BodyTooLargeError", limit: 4000 });
  });
});
