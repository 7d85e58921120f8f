// The one reader for stored files (serveObject in storage.server.ts) against Miniflare's R2 — rules a
// broken line must not get past (found by mutation testing): only our keys are served,
// a stored file never runs in the page (nosniff, sandboxed CSP, non-images downloaded), a cached copy
// is revalidated by its ETag, and byte ranges answer exactly the bytes asked for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestBucket } from "../../tests/integration/harness";
import { attachmentDisposition, parseRange, serveObject, type MediaBucket, type ServeOptions } from "./storage.server";

const media = await createTestBucket();
const bucket: MediaBucket = media.bucket;
afterAll(() => media.dispose());

/** 100 bytes 0..99: a range's body shows which bytes were sent. */
const HUNDRED = Uint8Array.from({ length: 100 }, (_, i) => i);
const FILE = "lesson-materials/l1/1700000000000_Apostila.pdf";
beforeAll(async () => {
  await bucket.put("modules/foto.png", HUNDRED, { httpMetadata: { contentType: "image/png" } });
  await bucket.put("modules/pagina.html", "<script>alert(1)</script>", { httpMetadata: { contentType: "text/html" } });
  await bucket.put("modules/sem-tipo.png", HUNDRED);
  await bucket.put("modules/gravacao.mp3", HUNDRED, { httpMetadata: { contentType: "audio/mpeg" } });
  await bucket.put(FILE, HUNDRED, {
    httpMetadata: { contentType: "application/pdf" },
    customMetadata: { originalName: "Aula%20%C3%A9%22x%22.pdf" },
  });
});

function serve(key: string, headers: Record<string, string> = {}, options: Partial<ServeOptions> = {}) {
  return serveObject(bucket, key, {
    request: new Request(`http://nika.test/media/${key}`, { headers }),
    disposition: "image",
    cacheControl: "public, max-age=60",
    ...options,
  });
}
const bytesOf = async (response: Response) => [...new Uint8Array(await response.arrayBuffer())];

describe("serveObject", () => {
  it("serves only valid keys that exist", async () => {
    expect(await serve("../modules/foto.png")).toBeNull();
    expect(await serve("modules/nao-existe.png")).toBeNull();
    const found = await serve("modules/foto.png");
    expect(found!.status).toBe(200);
    expect(await bytesOf(found!)).toEqual([...HUNDRED]);
  });

  it("every answer is nosniff, sandboxed, same-site, with the route's cache policy and the object's ETag", async () => {
    const response = (await serve("modules/foto.png", {}, { extraHeaders: { Vary: "Cookie" } }))!;
    const head = await bucket.head("modules/foto.png");
    expect(Object.fromEntries(response.headers)).toMatchObject({
      etag: head!.httpEtag,
      "cache-control": "public, max-age=60",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "same-site",
      "content-type": "image/png",
      "content-length": "100",
      vary: "Cookie",
    });
    expect(response.headers.get("Content-Disposition")).toBeNull();
    expect(response.headers.get("Accept-Ranges")).toBeNull();
  });

  it("as image: only displayable image types inline; anything else (or untyped) is an anonymous download", async () => {
    const html = (await serve("modules/pagina.html"))!;
    expect([html.headers.get("Content-Type"), html.headers.get("Content-Disposition")]).toEqual(["application/octet-stream", "attachment"]);
    const untyped = (await serve("modules/sem-tipo.png"))!;
    expect([untyped.headers.get("Content-Type"), untyped.headers.get("Content-Disposition")]).toEqual([
      "application/octet-stream",
      "attachment",
    ]);
  });

  it("as media: playable audio inline too, still nothing else", async () => {
    const types = async (key: string, disposition: ServeOptions["disposition"]) => {
      const response = (await serve(key, {}, { disposition }))!;
      return [response.headers.get("Content-Type"), response.headers.get("Content-Disposition")];
    };
    expect(await types("modules/gravacao.mp3", "media")).toEqual(["audio/mpeg", null]);
    expect(await types("modules/foto.png", "media")).toEqual(["image/png", null]);
    expect(await types("modules/gravacao.mp3", "image")).toEqual(["application/octet-stream", "attachment"]);
    expect(await types("modules/pagina.html", "media")).toEqual(["application/octet-stream", "attachment"]);
  });

  it("inline keeps the stored type (or octet-stream); attachment names the download after the original file", async () => {
    const inline = (await serve("modules/pagina.html", {}, { disposition: "inline" }))!;
    expect([inline.headers.get("Content-Type"), inline.headers.get("Content-Disposition")]).toEqual(["text/html", null]);
    const untyped = (await serve("modules/sem-tipo.png", {}, { disposition: "inline" }))!;
    expect(untyped.headers.get("Content-Type")).toBe("application/octet-stream");
    const download = (await serve(FILE, {}, { disposition: "attachment" }))!;
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    expect(download.headers.get("Content-Disposition")).toBe(attachmentDisposition('Aula é"x".pdf'));
  });

  it("answers 304 without a body when If-None-Match is the current ETag (weak or strong), else the file", async () => {
    const etag = (await bucket.head("modules/foto.png"))!.httpEtag;
    for (const header of [etag, `W/${etag}`, ` ${etag} `]) {
      const cached = (await serve("modules/foto.png", { "If-None-Match": header }))!;
      expect([header, cached.status, cached.body]).toEqual([header, 304, null]);
      expect(cached.headers.get("ETag")).toBe(etag);
    }
    for (const header of ['"outra"', "*", `${etag}, "outra"`]) {
      const full = (await serve("modules/foto.png", { "If-None-Match": header }))!;
      expect([header, full.status]).toEqual([header, 200]);
      expect(await bytesOf(full)).toEqual([...HUNDRED]);
    }
  });

  it("answers a byte range with 206 and exactly those bytes, when ranges are on", async () => {
    const range = async (header: string) => {
      const response = (await serve("modules/foto.png", { Range: header }, { ranges: true }))!;
      return {
        status: response.status,
        contentRange: response.headers.get("Content-Range"),
        length: response.headers.get("Content-Length"),
        acceptRanges: response.headers.get("Accept-Ranges"),
        bytes: await bytesOf(response),
      };
    };
    const slice = (from: number, to: number) => [...HUNDRED.slice(from, to + 1)];
    expect(await range("bytes=10-19")).toEqual({
      status: 206,
      contentRange: "bytes 10-19/100",
      length: "10",
      acceptRanges: "bytes",
      bytes: slice(10, 19),
    });
    expect(await range("bytes=90-")).toEqual({
      status: 206,
      contentRange: "bytes 90-99/100",
      length: "10",
      acceptRanges: "bytes",
      bytes: slice(90, 99),
    });
    expect(await range("bytes=-5")).toEqual({
      status: 206,
      contentRange: "bytes 95-99/100",
      length: "5",
      acceptRanges: "bytes",
      bytes: slice(95, 99),
    });
    expect(await range("bytes=0-0")).toEqual({ status: 206, contentRange: "bytes 0-0/100", length: "1", acceptRanges: "bytes", bytes: [0] });
    // not a single satisfiable-looking range: the whole file
    for (const header of ["bytes=20-10", "bytes=-", "items=0-5", "bytes=0-5,10-15"]) {
      expect([header, await range(header)]).toEqual([
        header,
        { status: 200, contentRange: null, length: "100", acceptRanges: "bytes", bytes: [...HUNDRED] },
      ]);
    }
    // ranges off (public images): Range is ignored
    const ignored = (await serve("modules/foto.png", { Range: "bytes=10-19" }))!;
    expect([ignored.status, ignored.headers.get("Content-Range"), (await bytesOf(ignored)).length]).toEqual([200, null, 100]);
  });
});

describe("serveObject: edges", () => {
  it("never serves an object outside our key prefixes, even when the bucket holds one", async () => {
    await bucket.put("segredos/config.json", '{"chave":"x"}', { httpMetadata: { contentType: "application/json" } });
    expect(await serve("segredos/config.json")).toBeNull();
    expect(await serve("segredos/config.json", {}, { disposition: "inline" })).toBeNull();
  });

  it("a range running past the end is answered up to the last byte", async () => {
    const response = (await serve("modules/foto.png", { Range: "bytes=95-200" }, { ranges: true }))!;
    expect([response.status, response.headers.get("Content-Range"), response.headers.get("Content-Length")]).toEqual([
      206,
      "bytes 95-99/100",
      "5",
    ]);
    expect(await bytesOf(response)).toEqual([...HUNDRED.slice(95)]);
  });

  it("a suffix range echoed back as R2 does ({ suffix }) is located from the end", async () => {
    // R2 reports the range as it was asked for; Miniflare resolves it to an offset, so echo it here.
    const echoing = {
      get: async (key: string, options?: R2GetOptions) => {
        const object = await bucket.get(key, options);
        if (!object || !options?.range) return object;
        return new Proxy(object, { get: (target, name) => (name === "range" ? options.range : Reflect.get(target, name, target)) });
      },
    } as unknown as MediaBucket;
    const response = (await serveObject(echoing, "modules/foto.png", {
      request: new Request("http://nika.test/media/modules/foto.png", { headers: { Range: "bytes=-5" } }),
      disposition: "image",
      cacheControl: "no-store",
      ranges: true,
    }))!;
    expect([response.status, response.headers.get("Content-Range"), response.headers.get("Content-Length")]).toEqual([
      206,
      "bytes 95-99/100",
      "5",
    ]);
    const tooLong = (await serveObject(echoing, "modules/foto.png", {
      request: new Request("http://nika.test/media/modules/foto.png", { headers: { Range: "bytes=-500" } }),
      disposition: "image",
      cacheControl: "no-store",
      ranges: true,
    }))!;
    expect([tooLong.status, tooLong.headers.get("Content-Range"), tooLong.headers.get("Content-Length")]).toEqual([
      206,
      "bytes 0-99/100",
      "100",
    ]);
    // a range running past the end, echoed as asked: answered up to the last byte
    const pastEnd = (await serveObject(echoing, "modules/foto.png", {
      request: new Request("http://nika.test/media/modules/foto.png", { headers: { Range: "bytes=95-200" } }),
      disposition: "image",
      cacheControl: "no-store",
      ranges: true,
    }))!;
    expect([pastEnd.status, pastEnd.headers.get("Content-Range"), pastEnd.headers.get("Content-Length")]).toEqual([206, "bytes 95-99/100", "5"]);
  });
});

describe("parseRange / attachmentDisposition", () => {
  it("parses one bytes= range the way R2 takes it", () => {
    expect(parseRange("bytes=5-9")).toEqual({ offset: 5, length: 5 });
    expect(parseRange("bytes=5-5")).toEqual({ offset: 5, length: 1 });
    expect(parseRange(" bytes=7- ")).toEqual({ offset: 7 });
    expect(parseRange("bytes=-3")).toEqual({ suffix: 3 });
    for (const header of [null, "", "bytes=-", "bytes=9-5", "bytes=a-b", "xbytes=1-2", "bytes=1-2x"])
      expect([header, parseRange(header)]).toEqual([header, null]);
  });

  it("gives an ASCII fallback name and the exact UTF-8 name", () => {
    expect(attachmentDisposition('Aula 1 – "revisão"\\final.pdf')).toBe(
      `attachment; filename="Aula 1 _ _revis_o__final.pdf"; filename*=UTF-8''Aula%201%20%E2%80%93%20%22revis%C3%A3o%22%5Cfinal.pdf`,
    );
    expect(attachmentDisposition("it's (1)*.pdf")).toBe(`attachment; filename="it's (1)*.pdf"; filename*=UTF-8''it%27s%20%281%29%2A.pdf`);
  });
});
