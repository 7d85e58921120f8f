// The worker renders with React 18's production browser build of react-dom/server, patched (patches/react-dom+18.3.1.patch,
// decision 0019) so that Fizz joins strings and encodes them once per ~4 KB instead of once per string. Vitest runs
// the development build, so this loads the patched production file itself and holds it to React's own output.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createElement as h, Suspense, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const productionBuild = join(dirname(require.resolve("react-dom/package.json")), "cjs/react-dom-server.browser.production.min.js");
const { renderToReadableStream } = require(productionBuild) as typeof import("react-dom/server");

async function chunksOf(element: ReactNode) {
  const stream = await renderToReadableStream(element);
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks;
}
const text = (chunks: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(chunks));

describe("the worker's server renderer (patched React 18 Fizz)", () => {
  it("is byte for byte React's output, with accents, emoji and strings on both sides of the 4 KB flush", async () => {
    for (const size of [0, 1, 700, 1365, 1366, 4095, 4096, 9000]) {
      const page = h(
        "main",
        { title: "é".repeat(size), "data-size": size },
        h("h1", null, "Olá, ", "aluno"),
        h("p", null, "ü€😀".repeat(size)),
        ...Array.from({ length: 40 }, (_, i) => h("span", { key: i, className: `c${i}` }, "x".repeat(size % 97), i)),
      );
      expect(text(await chunksOf(page))).toBe(renderToString(page));
    }
  });

  it("keeps a surrogate pair whole when it straddles the flush", async () => {
    const page = h("p", { title: "b".repeat(4088) }, "😀fim");
    const html = text(await chunksOf(page));
    expect(html).toContain('b">😀fim</p>');
    expect(html).not.toContain("\uFFFD");
  });

  it("still streams: the shell is sent before a suspended part resolves", async () => {
    let resolve!: () => void;
    const ready = new Promise<void>((r) => (resolve = r));
    let done = false;
    function Late(): ReactNode {
      if (!done) throw ready.then(() => void (done = true));
      return h("p", null, "depois");
    }
    const stream = await renderToReadableStream(
      h("div", null, h("h1", null, "antes"), h(Suspense, { fallback: h("i", null, "carregando") }, h(Late))),
    );
    const reader = stream.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("<h1>antes</h1>");
    expect(first).toContain("carregando");
    expect(first).not.toContain("depois");
    resolve();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toContain("depois");
  });

  it("starts every render clean (nothing left over from a render that threw)", async () => {
    function Boom(): ReactNode {
      throw new Error("boom");
    }
    await expect(renderToReadableStream(h("div", null, "x".repeat(100), h(Boom)), { onError: () => {} })).rejects.toThrow("boom");
    const html = text(await chunksOf(h("p", null, "limpo")));
    expect(html).toBe("<p>limpo</p>");
  });
});
