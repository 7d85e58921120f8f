import { describe, expect, it } from "vitest";
import { saoPauloDate, saoPauloDateTime, saoPauloParts } from "./dates";

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
  it("gives the São Paulo calendar's parts across UTC midnight and a year's turn", () => {
    expect(saoPauloParts(new Date("2027-01-01T02:59:30Z"))).toEqual({ year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 30 });
    expect(saoPauloParts(new Date("2027-01-01T03:00:00Z"))).toEqual({ year: 2027, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
  });
});
