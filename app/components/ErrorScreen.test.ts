import { describe, expect, it } from "vitest";
import { errorDetails, isFeatureDisabledError, isNotFound } from "./ErrorScreen";

const response = (status: number, data: unknown, statusText = "") => ({ status, statusText, internal: false, data });

describe("error classification", () => {
  it("recognises 404 responses", () => {
    expect(isNotFound(response(404, null, "Not Found"))).toBe(true);
    expect(isNotFound(new Error("404"))).toBe(false);
  });

  it("recognises requireFeature's 403", () => {
    expect(isFeatureDisabledError(response(403, { featureDisabled: true, feature: "feature_flashcards" }))).toBe(true);
    expect(isFeatureDisabledError(response(403, { error: "Acesso restrito a administradores." }))).toBe(false);
    expect(isFeatureDisabledError(response(500, { featureDisabled: true }))).toBe(false);
  });
});

describe("errorDetails", () => {
  it("shows status, status text and the response's message", () => {
    expect(errorDetails(response(403, { error: "Acesso restrito." }, "Forbidden")).message).toBe("403 Forbidden — Acesso restrito.");
    expect(errorDetails(response(500, "Falhou", "Internal Server Error")).message).toBe("500 Internal Server Error — Falhou");
    expect(errorDetails(response(503, null)).message).toBe("503");
  });

  it("shows an Error's message (the stack is returned separately, shown only in development)", () => {
    const details = errorDetails(new TypeError("x is not a function"));
    expect(details.message).toBe("x is not a function");
    expect(details.stack).toContain("TypeError");
  });

  it("copes with anything thrown", () => {
    expect(errorDetails("texto").message).toBe("texto");
    expect(errorDetails(42).message).toBe("Erro desconhecido.");
  });
});
