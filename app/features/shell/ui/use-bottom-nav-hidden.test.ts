import { describe, expect, it } from "vitest";
import { KEYBOARD_THRESHOLD_PX, keyboardOpen } from "./use-bottom-nav-hidden";

describe("keyboardOpen", () => {
  it("is open only when the viewport shrank by more than 150 px", () => {
    expect(KEYBOARD_THRESHOLD_PX).toBe(150);
    expect(keyboardOpen(844, 844)).toBe(false);
    expect(keyboardOpen(844, 694)).toBe(false);
    expect(keyboardOpen(844, 693)).toBe(true);
    expect(keyboardOpen(844, 420)).toBe(true);
  });
});
