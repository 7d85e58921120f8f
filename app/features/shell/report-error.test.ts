import { describe, expect, it, vi } from "vitest";
import { MAX_REPORTS_PER_PAGE, createErrorReporter, reportFromError } from "./report-error";

const page = () => ({ url: "https://nika.test/labs", userAgent: "test" });

describe("client error reporter", () => {
  it("sends at most 5 reports per page load", () => {
    const send = vi.fn();
    const report = createErrorReporter({ send, page, now: () => 1 });
    for (let i = 0; i < 8; i++) report(reportFromError(new Error(`boom ${i}`)));
    expect(MAX_REPORTS_PER_PAGE).toBe(5);
    expect(send).toHaveBeenCalledTimes(5);
    const body = JSON.parse(send.mock.calls[0][0]);
    expect(body).toMatchObject({ name: "Error", message: "boom 0", url: "https://nika.test/labs", timestamp: 1 });
    expect(typeof body.stack).toBe("string");
  });

  it("ignores cross-origin 'Script error.' and ResizeObserver noise", () => {
    const send = vi.fn();
    const report = createErrorReporter({ send, page });
    expect(report(reportFromError("Script error."))).toBe(false);
    expect(report(reportFromError(new Error("ResizeObserver loop limit exceeded")))).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });

  it("describes non-Error rejection reasons", () => {
    expect(reportFromError({ code: 42 })).toMatchObject({ name: "Error", message: '{"code":42}' });
    expect(reportFromError(undefined).message).toBeTruthy();
    expect(reportFromError(new TypeError("x")).name).toBe("TypeError");
  });

  it("clips long fields", () => {
    const r = reportFromError(Object.assign(new Error("m".repeat(5000)), { stack: "s".repeat(20000) }));
    expect(r.message.length).toBe(2000);
    expect(r.stack!.length).toBe(8000);
  });

  it("never throws when sending fails", () => {
    const report = createErrorReporter({
      send: () => {
        throw new Error("offline");
      },
      page,
    });
    expect(() => report(reportFromError(new Error("x")))).not.toThrow();
  });
});
