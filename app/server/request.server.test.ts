import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FORM_BYTES, parseForm, readBytes, readFormData, readMultipart, requireIntent, requireUuidParam } from "./request.server";

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

describe("parseForm / requireIntent / requireUuidParam", () => {
  const schema = z.object({ intent: z.literal("save"), title: z.string().max(5) });

  it("validates with the route's schema", async () => {
    const ok = await parseForm(post("intent=save&title=abc", { "Content-Type": "application/x-www-form-urlencoded" }), schema);
    expect(ok.status).toBe("success");
    const bad = await parseForm(post("intent=save&title=abcdefgh", { "Content-Type": "application/x-www-form-urlencoded" }), schema);
    expect(bad.status).toBe("error");
    expect(bad.reply().error).toHaveProperty("title");
  });

  it("refuses unknown intents with 400", async () => {
    const form = new FormData();
    form.set("intent", "hack");
    expect(await outcome(async () => requireIntent(form, ["save", "remove"]))).toBe("400 Ação inválida.");
    form.set("intent", "remove");
    expect(requireIntent(form, ["save", "remove"])).toBe("remove");
  });

  it("404s malformed ids before any other work", async () => {
    expect(await outcome(async () => requireUuidParam({ id: "../etc/passwd" }, "id", "Aula não encontrada"))).toBe("404 Aula não encontrada");
    expect(requireUuidParam({ id: "0E8D3C4A-1B2C-4D5E-8F90-1234567890AB" }, "id")).toBe("0e8d3c4a-1b2c-4d5e-8f90-1234567890ab");
  });
});

describe("readMultipart", () => {
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
