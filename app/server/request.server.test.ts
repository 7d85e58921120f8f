import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BODY_MESSAGES,
  bodyKind,
  BodyTooLargeError,
  checkBodyHeaders,
  drain,
  FORM_BYTES,
  notFound,
  parseForm,
  readBytes,
  readFormData,
  readJson,
  readMultipart,
  refusalMessage,
  refuseControlCharactersInUrl,
  requireUuidParam,
  UnreadableBodyError,
} from "./request.server";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("https://nika.test/x", { method: "POST", body, headers });

/** The status and pt-BR message of what a helper threw (a Response), or "ok". */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const body = (await thrown.json()) as { error: string };
    return `${thrown.status} ${body.error}`;
  }
}

const chunked = (chunks: number, size: number, type = "application/x-www-form-urlencoded") =>
  new Request("https://nika.test/x", {
    method: "POST",
    headers: { "Content-Type": type },
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < chunks; i++) controller.enqueue(new TextEncoder().encode("a".repeat(size)));
        controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);

const FILE_PART_HEAD = `--b\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`;

/** A multipart upload whose stream stays open after `chunks` (the client is still sending); tells whether the reader cancelled it. */
function unfinishedUpload(chunks: Uint8Array[]) {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    cancel: () => void (cancelled = true),
  });
  const request = new Request("https://nika.test/x", {
    method: "POST",
    body,
    headers: { "Content-Type": "multipart/form-data; boundary=b" },
    duplex: "half",
  } as RequestInit);
  return { request, cancelled: () => cancelled };
}

describe("readFormData", () => {
  it("reads url-encoded and multipart forms", async () => {
    const form = await readFormData(post("a=1&b=%C3%A9", { "Content-Type": "application/x-www-form-urlencoded" }));
    expect([form.get("a"), form.get("b")]).toEqual(["1", "é"]);
    const multipart = new FormData();
    multipart.set("name", "Nika");
    expect((await readFormData(new Request("https://nika.test/x", { method: "POST", body: multipart }))).get("name")).toBe("Nika");
  });

  it("refuses other content types with 415 before reading", async () => {
    expect(await outcome(() => readFormData(post('{"a":1}', { "Content-Type": "application/json" })))).toMatch(/^415 Tipo de conteúdo/);
    expect(await outcome(() => readFormData(post("a=1", { "Content-Type": "text/plain" })))).toMatch(/^415 /);
    expect(await outcome(() => readFormData(post("<a/>", { "Content-Type": "application/xml" })))).toMatch(/^415 /);
    expect(await outcome(() => readFormData(post(null)))).toMatch(/^415 /);
    expect(await outcome(() => readFormData(post("x", { "Content-Type": "multipart/form-data" })))).toMatch(/^400 /);
  });

  it("refuses a declared Content-Length over the cap with 413 without reading", async () => {
    let pulled = false;
    const body = new ReadableStream({ pull: () => void (pulled = true) }, { highWaterMark: 0 });
    const request = new Request("https://nika.test/x", {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(FORM_BYTES + 1) },
      duplex: "half",
    } as RequestInit);
    expect(await outcome(() => readFormData(request))).toBe("413 Envio grande demais.");
    expect(pulled).toBe(false);
  });

  it("counts bytes while reading (no or lying Content-Length) and accepts exactly the cap", async () => {
    expect(await outcome(() => readFormData(chunked(65, 1024)))).toBe("413 Envio grande demais.");
    expect(await outcome(() => readFormData(chunked(64, 1024)))).toBe("ok");
    expect(await outcome(() => readFormData(chunked(2, 1024), { maxBytes: 1024 }))).toMatch(/^413 /);
  });

  it("answers 400 for a broken multipart body", async () => {
    const broken = post('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end', { "Content-Type": "multipart/form-data; boundary=b" });
    expect(await outcome(() => readFormData(broken))).toBe("400 Não foi possível ler o envio.");
  });

  it("refuses a field sent twice (url-encoded or multipart) with 400", async () => {
    const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };
    expect(await outcome(() => readFormData(post("intent=save&title=a&intent=save&title=b", urlencoded)))).toBe("400 Campo repetido no envio.");
    expect(await outcome(() => readFormData(post("title=a&title=", urlencoded)))).toBe("400 Campo repetido no envio.");
    const multipart = new FormData();
    multipart.append("title", "a");
    multipart.append("title", "b");
    expect(await outcome(() => readFormData(new Request("https://nika.test/x", { method: "POST", body: multipart })))).toBe(
      "400 Campo repetido no envio.",
    );
    expect(await outcome(() => readFormData(post("title=a&description=a&intent=save", urlencoded)))).toBe("ok");
  });
});

describe("readBytes", () => {
  it("takes only the kinds the route accepts, within its cap", async () => {
    const options = { maxBytes: 16, accept: ["json", "text"] as const };
    expect((await readBytes(post('{"a":1}', { "Content-Type": "application/json" }), { ...options, accept: [...options.accept] })).kind).toBe(
      "json",
    );
    expect(
      await outcome(() => readBytes(post("a=1", { "Content-Type": "application/x-www-form-urlencoded" }), { ...options, accept: ["json"] })),
    ).toMatch(/^415 /);
    expect(await outcome(() => readBytes(post("x".repeat(17), { "Content-Type": "text/plain" }), { maxBytes: 16, accept: ["text"] }))).toMatch(
      /^413 /,
    );
  });
});

describe("parseForm / requireUuidParam / notFound", () => {
  const schema = z.object({ intent: z.literal("save"), title: z.string().max(5) });

  it("validates with the route's schema", async () => {
    const ok = await parseForm(post("intent=save&title=abc", { "Content-Type": "application/x-www-form-urlencoded" }), schema);
    expect(ok.status).toBe("success");
    const bad = await parseForm(post("intent=save&title=abcdefgh", { "Content-Type": "application/x-www-form-urlencoded" }), schema);
    expect(bad.status).toBe("error");
    expect(bad.reply().error).toHaveProperty("title");
  });

  it("refuses a repeated field before the schema sees an array", async () => {
    const repeated = post("intent=save&title=abc&intent=save&title=abc", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(await outcome(() => parseForm(repeated, schema))).toBe("400 Campo repetido no envio.");
  });

  it("404s malformed ids before any other work", async () => {
    expect(await outcome(async () => requireUuidParam({ id: "../etc/passwd" }, "id", "Aula não encontrada"))).toBe("404 Aula não encontrada");
    expect(requireUuidParam({ id: "0E8D3C4A-1B2C-4D5E-8F90-1234567890AB" }, "id")).toBe("0e8d3c4a-1b2c-4d5e-8f90-1234567890ab");
  });
});

describe("readMultipart", () => {
  it("refuses a part name sent twice, text or file, once the body is read", async () => {
    const twice = (first: string, second: string) =>
      new Request("https://nika.test/x", {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=b" },
        body: `--b\r\n${first}\r\n--b\r\n${second}\r\n--b--\r\n`,
      });
    const text = (name: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\nvalor`;
    const file = (name: string) => `Content-Disposition: form-data; name="${name}"; filename="a.pdf"\r\n\r\n%PDF`;
    const files: string[] = [];
    const onFile = async (part: { filename?: string; data: AsyncIterable<Uint8Array> }) => {
      files.push(part.filename ?? "");
      await drain(part.data);
      return undefined;
    };
    expect(await outcome(() => readMultipart(twice(text("title"), text("title")), 1024, onFile))).toBe("400 Campo repetido no envio.");
    expect(await outcome(() => readMultipart(twice(file("file"), file("file")), 1024, onFile))).toBe("400 Campo repetido no envio.");
    expect(await outcome(() => readMultipart(twice(text("file"), file("file")), 1024, onFile))).toBe("400 Campo repetido no envio.");
    expect(await outcome(() => readMultipart(twice(text("title"), file("file")), 1024, onFile))).toBe("ok");
  });

  it("streams file parts to the handler and refuses non-forms", async () => {
    const form = new FormData();
    form.set("title", "Aula");
    form.set("file", new File(["conteúdo"], "apostila.pdf", { type: "application/pdf" }));
    const seen: string[] = [];
    const fields = await readMultipart(new Request("https://nika.test/x", { method: "POST", body: form }), 1024 * 1024, async (part) => {
      seen.push(`${part.name}:${part.filename}`);
      return undefined;
    });
    expect(fields.get("title")).toBe("Aula");
    expect(seen).toEqual(["file:apostila.pdf"]);
    expect(await outcome(() => readMultipart(post("{}", { "Content-Type": "application/json" }), 1024, async () => undefined))).toMatch(/^415 /);
  });
});

// ——— found by mutation testing: the edges of each refusal ———

/** What a helper threw, as `{ status, code, error, cacheControl }`. */
async function refusalOf(run: () => unknown) {
  try {
    await run();
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const body = (await thrown.json()) as { error: string; code: string };
    return { status: thrown.status, code: body.code, error: body.error, cacheControl: thrown.headers.get("Cache-Control") };
  }
  throw new Error("nothing was refused");
}
const headersOnly = (headers: Record<string, string>) => new Request("https://nika.test/x", { method: "POST", headers });

describe("refusals", () => {
  it("carry the code of their status and are never cached", async () => {
    const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };
    expect(await refusalOf(() => readFormData(post("{}", { "Content-Type": "application/json" })))).toEqual({
      status: 415,
      code: "unsupported_type",
      error: BODY_MESSAGES.unsupportedType,
      cacheControl: "no-store",
    });
    expect(await refusalOf(() => readFormData(post("a=".padEnd(20, "x"), urlencoded), { maxBytes: 10 }))).toEqual({
      status: 413,
      code: "too_large",
      error: BODY_MESSAGES.tooLarge,
      cacheControl: "no-store",
    });
    expect(await refusalOf(() => readFormData(post("x", { "Content-Type": "multipart/form-data" })))).toMatchObject({
      status: 400,
      code: "bad_request",
      error: BODY_MESSAGES.unreadable,
    });
    expect(await refusalOf(() => requireUuidParam({}, "id"))).toEqual({
      status: 404,
      code: "not_found",
      error: "Não encontrado.",
      cacheControl: "no-store",
    });
    expect(await refusalOf(() => readFormData(post("a=1&a=2", urlencoded)))).toMatchObject({ status: 400, code: "duplicated_field" });
    expect(await refusalOf(() => requireUuidParam({ id: "x" }, "id", "Aula não encontrada"))).toEqual({
      status: 404,
      code: "not_found",
      error: "Aula não encontrada",
      cacheControl: "no-store",
    });
    expect(
      await refusalOf(() => {
        throw notFound("Módulo não encontrado", "module_not_found");
      }),
    ).toMatchObject({ status: 404, code: "module_not_found" });
  });

  it("throws the answer, whose message callers with their own shape can read", async () => {
    const thrown = notFound("Aula não encontrada");
    expect(thrown).toBeInstanceOf(Response);
    expect(await refusalMessage(thrown)).toBe("Aula não encontrada");
    expect(await refusalMessage(new Response("texto"))).toBe("Não foi possível ler o envio.");
  });

  it("a page's own not-found is thrown as it is", () => {
    const notFound = new Response("Aula não encontrada", { status: 404 });
    expect(() => requireUuidParam({ id: "nope" }, "id", () => notFound)).toThrow(expect.objectContaining({ status: 404 }));
    let thrown: unknown;
    try {
      requireUuidParam({ id: "nope" }, "id", () => notFound);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(notFound);
  });
});

describe("bodyKind / checkBodyHeaders", () => {
  it("reads the media type whatever its case, parameters and spaces", () => {
    expect(bodyKind(headersOnly({ "Content-Type": "Application/X-WWW-Form-Urlencoded; charset=UTF-8" }))).toBe("urlencoded");
    expect(bodyKind(headersOnly({ "Content-Type": "MULTIPART/FORM-DATA; boundary=x" }))).toBe("multipart");
    expect(bodyKind(headersOnly({ "Content-Type": "application/json ; charset=utf-8" }))).toBe("json");
    expect(bodyKind(headersOnly({ "Content-Type": "application/csp-report+json" }))).toBe("json");
    expect(bodyKind(headersOnly({ "Content-Type": "text/plain;charset=UTF-8" }))).toBe("text");
    expect(bodyKind(headersOnly({ "Content-Type": "text/html" }))).toBeNull();
    expect(bodyKind(headersOnly({}))).toBeNull();
  });

  it("takes a multipart boundary in any case, and a declared length of exactly the cap", () => {
    const accept = ["multipart", "urlencoded"] as const;
    expect(checkBodyHeaders(headersOnly({ "Content-Type": "multipart/form-data; BOUNDARY=abc" }), { accept, maxBytes: 10 })).toBe("multipart");
    const declared = (length: string) => headersOnly({ "Content-Type": "application/x-www-form-urlencoded", "Content-Length": length });
    expect(checkBodyHeaders(declared("10"), { accept, maxBytes: 10 })).toBe("urlencoded");
    expect(() => checkBodyHeaders(declared("11"), { accept, maxBytes: 10 })).toThrow(expect.objectContaining({ status: 413 }));
  });
});

describe("empty bodies", () => {
  it("a form without a body is an empty form, for both readers", async () => {
    expect([...(await readFormData(headersOnly({ "Content-Type": "application/x-www-form-urlencoded" }))).keys()]).toEqual([]);
    const multipart = headersOnly({ "Content-Type": "multipart/form-data; boundary=abc" });
    expect([...(await readMultipart(multipart, 1024, async () => "file")).keys()]).toEqual([]);
  });
});

describe("readMultipart limits", () => {
  const MAX_TEXT = 64 * 1024;
  const form = (fields: [string, string | File][]) => {
    const data = new FormData();
    for (const [name, value] of fields) data.append(name, value);
    return new Request("https://nika.test/x", { method: "POST", body: data });
  };
  const none = async () => undefined;

  it("a url-encoded body is read as a plain form within the smaller of its cap and 64 KB", async () => {
    const urlencoded = (body: string) => post(body, { "Content-Type": "application/x-www-form-urlencoded" });
    expect((await readMultipart(urlencoded("title=Aula"), 1024 * 1024, none)).get("title")).toBe("Aula");
    expect(await outcome(() => readMultipart(urlencoded("t=" + "a".repeat(FORM_BYTES)), 1024 * 1024, none))).toBe("413 Envio grande demais.");
    expect(await outcome(() => readMultipart(urlencoded("title=Aula"), 5, none))).toBe("413 Envio grande demais.");
  });

  it("text fields up to 64 KB pass; a longer one is refused once the whole body is parsed", async () => {
    const exact = await readMultipart(form([["embed", "é".repeat(MAX_TEXT / 2)]]), 1024 * 1024, none);
    expect(exact.get("embed")).toBe("é".repeat(MAX_TEXT / 2));
    const seen: string[] = [];
    const over = readMultipart(
      form([
        ["embed", "a".repeat(MAX_TEXT + 1)],
        ["file", new File(["x"], "depois.pdf")],
      ]),
      1024 * 1024,
      async (part) => {
        seen.push(part.filename!);
        return undefined;
      },
    );
    await expect(over).rejects.toMatchObject({ name: "BodyTooLargeError", limit: MAX_TEXT });
    expect(seen).toEqual(["depois.pdf"]);
  });

  it("reads on past a file the handler left unread", async () => {
    const fields = await readMultipart(
      form([
        ["file", new File(["a".repeat(50_000)], "apostila.pdf")],
        ["title", "Depois do arquivo"],
      ]),
      1024 * 1024,
      async () => "ignorado",
    );
    expect(fields.get("title")).toBe("Depois do arquivo");
    expect(fields.get("file")).toBe("ignorado");
  });

  it("passes the handler's own error through unchanged, and calls a broken body unreadable", async () => {
    const mine = new Error("storage down");
    await expect(
      readMultipart(form([["file", new File(["x"], "a.pdf")]]), 1024, async () => {
        throw mine;
      }),
    ).rejects.toBe(mine);
    const broken = () =>
      post('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end', { "Content-Type": "multipart/form-data; boundary=b" });
    await expect(readMultipart(broken(), 1024, none)).rejects.toMatchObject({ name: "UnreadableBodyError", message: BODY_MESSAGES.unreadable });
    await expect(readMultipart(broken(), 1024, none)).rejects.toBeInstanceOf(UnreadableBodyError);
  });

  it("stops a body past its cap with BodyTooLargeError and releases the rest", async () => {
    const upload = unfinishedUpload([new TextEncoder().encode(FILE_PART_HEAD), new Uint8Array(2048)]);
    await expect(readMultipart(upload.request, 1024, async (part) => (await drain(part.data), undefined))).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect(upload.cancelled()).toBe(true);
  });
});

describe("broken bodies", () => {
  const streamOf = (chunks: Uint8Array[], fail?: Error) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        if (fail) controller.error(fail);
        else controller.close();
      },
    });
  const streamed = (body: ReadableStream<Uint8Array>, type: string) =>
    new Request("https://nika.test/x", { method: "POST", body, headers: { "Content-Type": type }, duplex: "half" } as RequestInit);

  it("a multipart type without a boundary is refused (400) before a byte is read, by both readers", async () => {
    for (const read of [(r: Request) => readFormData(r), (r: Request) => readMultipart(r, 1024, async () => undefined)]) {
      const request = post("x", { "Content-Type": "multipart/form-data" });
      expect(await refusalOf(() => read(request))).toMatchObject({ status: 400, code: "bad_request" });
      expect(request.bodyUsed).toBe(false);
    }
  });

  it("a body whose stream breaks is unreadable (400), not too large", async () => {
    const request = streamed(streamOf([new TextEncoder().encode("a=1")], new Error("conexão caiu")), "application/x-www-form-urlencoded");
    expect(await refusalOf(() => readFormData(request))).toMatchObject({ status: 400, code: "bad_request", error: BODY_MESSAGES.unreadable });
  });

  it("decodes a text field whose characters are split between chunks", async () => {
    const encoder = new TextEncoder();
    const head = encoder.encode('--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nAula ');
    const e = encoder.encode("é"); // two bytes, sent in two chunks
    const tail = encoder.encode(" revisão\r\n--b--\r\n");
    const request = streamed(streamOf([head, e.subarray(0, 1), e.subarray(1), tail]), "multipart/form-data; boundary=b");
    expect((await readMultipart(request, 1024, async () => undefined)).get("title")).toBe("Aula é revisão");
  });
});

describe("giving up half-way", () => {
  it("when the file handler fails, the rest of the body is released", async () => {
    // a file part that has started but whose end has not arrived (the upload is still going)
    const upload = unfinishedUpload([new TextEncoder().encode(`${FILE_PART_HEAD}0123456789`)]);
    const request = upload.request;
    const failure = new Error("armazenamento recusou");
    await expect(
      readMultipart(request, 1024, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(upload.cancelled()).toBe(true);
  });
});

describe("control characters", () => {
  const CONTROL = "400 O envio contém caracteres inválidos.";
  const urlencoded = (body: string) => post(body, { "Content-Type": "application/x-www-form-urlencoded" });
  const json = (body: string) => post(body, { "Content-Type": "application/json" });

  it("refuses a NUL or another control character in a form's value or name; a textarea's tab and newlines pass", async () => {
    for (const body of ["slug=%00", "name=Ana%01", "nome%00=x", "t=a%7Fb", "t=%1B[31m"]) {
      expect(await outcome(() => readFormData(urlencoded(body))), body).toBe(CONTROL);
    }
    expect((await readFormData(urlencoded("text=linha%0D%0Aoutra%09fim"))).get("text")).toBe("linha\r\noutra\tfim");
  });

  it("refuses them in multipart text parts and file names, once the body is read", async () => {
    const text = new FormData();
    text.append("title", "Aula\u0000");
    expect(
      await outcome(() => readMultipart(new Request("https://nika.test/x", { method: "POST", body: text }), 1024, async () => undefined)),
    ).toBe(CONTROL);
    const file = new FormData();
    file.append("file", new File(["x"], "a\u0001.pdf"));
    let read = false;
    const onFile = async (part: { data: AsyncIterable<Uint8Array> }) => {
      await drain(part.data);
      read = true;
      return undefined;
    };
    expect(await outcome(() => readMultipart(new Request("https://nika.test/x", { method: "POST", body: file }), 1024, onFile))).toBe(CONTROL);
    expect(read).toBe(true);
  });

  it("refuses them in any string or key of a JSON body, however deep", async () => {
    const schema = z.unknown();
    for (const body of ['{"slug":"\\u0000"}', '{"a":[{"b":"x\\u0007"}]}', '{"k\\u0000":1}']) {
      expect(await outcome(() => readJson(json(body), schema)), body).toBe(CONTROL);
    }
    expect(await outcome(() => readJson(json('{"text":"a\\nb\\tc"}'), schema))).toBe("ok");
  });

  it("refuses them in a URL's decoded path or query; anything else passes", async () => {
    const status = async (url: string) => {
      const refused = refuseControlCharactersInUrl(new Request(url));
      return refused ? `${refused.status} ${((await refused.json()) as { error: string }).error}` : "ok";
    };
    for (const url of ["/resources/offline/bundle?target=category&slug=%00", "/flashcard-v2/%00", "/x?%01=1", "/x?q=%7F"]) {
      expect(await status(`https://nika.test${url}`), url).toBe(CONTROL);
    }
    for (const url of ["/signin?redirectTo=%2F%09%2Fevil", "/x?q=a%20b", "/%E0%A4%A", "/courses?tab=1"]) {
      expect(await status(`https://nika.test${url}`), url).toBe("ok");
    }
  });
});
