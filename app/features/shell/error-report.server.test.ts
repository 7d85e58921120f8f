import { PGlite } from "@electric-sql/pglite";
import { count, desc } from "drizzle-orm";
import { drizzle, type PgliteDatabase } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "~/server/schema";
import { KEEP_REPORTS, decodeReportBody, parseErrorReport, saveErrorReport, saveServerError } from "./error-report.server";

describe("parseErrorReport", () => {
  it("trims and truncates the strings", () => {
    const report = parseErrorReport({
      name: "  TypeError  ",
      message: "x".repeat(3000),
      stack: "s".repeat(9000),
      url: "https://nika.test/" + "a".repeat(3000),
    });
    expect(report).not.toBeNull();
    expect(report!.name).toBe("TypeError");
    expect(report!.message).toHaveLength(2000);
    expect(report!.stack).toHaveLength(8000);
    expect(report!.url).toHaveLength(2000);
    expect(parseErrorReport({ name: "n".repeat(300), message: "m" })!.name).toHaveLength(200);
  });

  it("requires name and message", () => {
    expect(parseErrorReport({ message: "x" })).toBeNull();
    expect(parseErrorReport({ name: "Error", message: "   " })).toBeNull();
    expect(parseErrorReport(undefined)).toBeNull();
    expect(parseErrorReport("Error")).toBeNull();
  });

  it("accepts a JSON object context up to 4 KB, also as a string from forms", () => {
    expect(parseErrorReport({ name: "E", message: "m", context: { kind: "error", line: 3 } })!.context).toEqual({
      kind: "error",
      line: 3,
    });
    expect(parseErrorReport({ name: "E", message: "m", context: '{"a":1}' })!.context).toEqual({ a: 1 });
    expect(parseErrorReport({ name: "E", message: "m", context: { big: "x".repeat(4200) } })).toBeNull();
    expect(parseErrorReport({ name: "E", message: "m", context: [1, 2] })).toBeNull();
    expect(parseErrorReport({ name: "E", message: "m", context: "not json" })).toBeNull();
    expect(parseErrorReport({ name: "E", message: "m", context: null })!.context).toBeUndefined();
  });

  it("turns the timestamp into a date and ignores bad ones", () => {
    expect(parseErrorReport({ name: "E", message: "m", timestamp: 0 })!.timestamp).toEqual(new Date(0));
    expect(parseErrorReport({ name: "E", message: "m", timestamp: "1700000000000" })!.timestamp).toEqual(new Date(1700000000000));
    expect(parseErrorReport({ name: "E", message: "m", timestamp: "nope" })!.timestamp).toBeUndefined();
  });
});

describe("decodeReportBody", () => {
  it("decodes JSON whatever the content type, and forms", async () => {
    const json = new TextEncoder().encode('{"name":"E","message":"m"}');
    expect(await decodeReportBody(json, "text/plain;charset=UTF-8")).toEqual({ name: "E", message: "m" });
    expect(await decodeReportBody(json, "application/json")).toEqual({ name: "E", message: "m" });
    const form = new TextEncoder().encode("name=E&message=hello+world");
    expect(await decodeReportBody(form, "application/x-www-form-urlencoded")).toEqual({ name: "E", message: "hello world" });
    expect(await decodeReportBody(new TextEncoder().encode("{oops"), "application/json")).toBeUndefined();
    expect(await decodeReportBody(json, "application/x-www-form-urlencoded")).toEqual({ name: "E", message: "m" });
    // a broken multipart body is not a report (400), never an exception
    expect(await decodeReportBody(new TextEncoder().encode("--x\r\nbroken"), "multipart/form-data; boundary=x")).toBeUndefined();
  });
});

describe("saveErrorReport", () => {
  let client: PGlite;
  let db: PgliteDatabase;

  beforeAll(async () => {
    client = new PGlite();
    db = drizzle(client);
    await migrate(db, { migrationsFolder: "migrations" });
  });
  afterAll(() => client.close());

  it("stores reports and keeps only the latest 100", async () => {
    for (let i = 0; i < KEEP_REPORTS + 5; i++) {
      await saveErrorReport(db, parseErrorReport({ name: "Error", message: `boom ${i}`, context: { i } })!, null);
    }
    const [{ total }] = await db.select({ total: count() }).from(schema.clientErrorReports);
    expect(total).toBe(KEEP_REPORTS);
    const [latest] = await db.select().from(schema.clientErrorReports).orderBy(desc(schema.clientErrorReports.id)).limit(1);
    expect(latest).toMatchObject({ message: `boom ${KEEP_REPORTS + 4}`, context: { i: KEEP_REPORTS + 4 }, userId: null });
    const [oldest] = await db.select().from(schema.clientErrorReports).orderBy(schema.clientErrorReports.id).limit(1);
    expect(oldest.message).toBe("boom 5");
  });

  it("stores an unexpected server exception with its route and request id", async () => {
    const request = new Request("https://nika.test/courses/lessons/abc?tab=x", { method: "POST", headers: { "User-Agent": "Teste/1.0" } });
    await saveServerError(db, new TypeError("Cannot read properties of undefined"), { request, requestId: "req-123" });
    const [latest] = await db.select().from(schema.clientErrorReports).orderBy(desc(schema.clientErrorReports.id)).limit(1);
    expect(latest).toMatchObject({
      name: "TypeError",
      message: "Cannot read properties of undefined",
      url: "/courses/lessons/abc?tab=x",
      userAgent: "Teste/1.0",
      context: { source: "server", route: "POST /courses/lessons/abc", requestId: "req-123" },
    });
    expect(latest!.stack).toContain("TypeError");
  });
});
