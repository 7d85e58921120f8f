import { describe, expect, it } from "vitest";
import { saoPauloDate, saoPauloDateTime } from "./dates";

describe("São Paulo dates", () => {
  it("writes the date and time of São Paulo (UTC−3), not of the machine", () => {
    expect(saoPauloDateTime("2026-11-25T17:05:00Z")).toBe("25/11/2026, 14:05");
    expect(saoPauloDateTime(new Date("2026-12-01T02:30:00Z"))).toBe("30/11/2026, 23:30");
  });
  it("gives the São Paulo day, which is the day before UTC's in its first three hours", () => {
    expect(saoPauloDate("2026-12-01T02:59:00Z")).toBe("30/11/2026");
    expect(saoPauloDate("2026-12-01T03:00:00Z")).toBe("01/12/2026");
  });
  it("keeps giving the same answers once its formatter is kept", () => {
    expect([saoPauloDate("2026-01-05T12:00:00Z"), saoPauloDate("2026-01-06T12:00:00Z")]).toEqual(["05/01/2026", "06/01/2026"]);
  });
});
