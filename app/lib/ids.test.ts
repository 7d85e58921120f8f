import { describe, expect, it } from "vitest";
import { isUuid } from "./ids";

describe("isUuid", () => {
  it("recognises UUIDs before they reach SQL", () => {
    expect(isUuid("8b0d3f9c-2a4e-4c1b-9a7e-1f2d3c4b5a69")).toBe(true);
    expect(isUuid("8B0D3F9C-2A4E-4C1B-9A7E-1F2D3C4B5A69")).toBe(true);
    expect(isUuid("not-a-uuid")).toBe(false);
    expect(isUuid("8b0d3f9c-2a4e-4c1b-9a7e-1f2d3c4b5a69x")).toBe(false);
    expect(isUuid(undefined)).toBe(false);
    expect(isUuid(42)).toBe(false);
  });
});
