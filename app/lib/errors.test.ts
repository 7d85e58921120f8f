import { describe, expect, it } from "vitest";
import { errorMessage } from "./errors";

describe("errorMessage", () => {
  it("reads an Error's message and stringifies anything else thrown", () => {
    expect(errorMessage(new TypeError("x is not a function"))).toBe("x is not a function");
    expect(errorMessage("falhou")).toBe("falhou");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(undefined)).toBe("undefined");
  });
});
