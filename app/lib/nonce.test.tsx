import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { config } from "zod/v4/core";
import { NonceProvider, useNonce } from "./nonce";

function Script() {
  return <script nonce={useNonce()} />;
}

describe("nonce", () => {
  it("reaches components under the provider, and is empty without one (the browser)", () => {
    expect(
      renderToString(
        <NonceProvider value="abc==">
          <Script />
        </NonceProvider>,
      ),
    ).toBe('<script nonce="abc=="></script>');
    expect(renderToString(<Script />)).toBe('<script nonce=""></script>');
  });

  it("turns zod's JIT (and its eval probe, a CSP violation) off", () => {
    expect(config().jitless).toBe(true);
  });
});
