// POST /api/errors: client error reports (spec §9 "error reports kept 100").
import { desc, notInArray } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "~/server/db.server";
import { clientErrorReports } from "~/server/schema";

export const MAX_BODY_BYTES = 16 * 1024;
export const MAX_CONTEXT_BYTES = 4 * 1024;
export const KEEP_REPORTS = 100;
export const INVALID_REPORT = "Relatório de erro inválido.";

const encoder = new TextEncoder();

/** Trimmed, then cut to `max` characters. */
const clipped = (max: number) =>
  z
    .string()
    .trim()
    .transform((value) => value.slice(0, max));
const optionalClipped = (max: number) =>
  clipped(max)
    .nullish()
    .transform((value) => value || undefined);

const jsonObject = z
  .preprocess(
    (value) => {
      if (typeof value !== "string") return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    },
    z.record(z.string(), z.unknown()),
  )
  .refine((value) => !Array.isArray(value), "context must be an object")
  .refine((value) => encoder.encode(JSON.stringify(value)).byteLength <= MAX_CONTEXT_BYTES, "context too large");

const timestamp = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => {
    if (value === null || value === undefined || value === "") return undefined;
    const date = new Date(typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value);
    return Number.isNaN(date.getTime()) ? undefined : date;
  });

export const errorReportSchema = z.object({
  name: clipped(200).pipe(z.string().min(1)),
  message: clipped(2000).pipe(z.string().min(1)),
  stack: optionalClipped(8000),
  context: jsonObject.nullish().transform((value) => value ?? undefined),
  url: optionalClipped(2000),
  userAgent: optionalClipped(500),
  timestamp,
});

export type ErrorReport = z.output<typeof errorReportSchema>;

/**
 * JSON (any content type, e.g. sendBeacon's text/plain) or an url-encoded/multipart form. A JSON object
 * mislabelled as url-encoded (curl -d, some beacons) is read as JSON.
 */
export async function decodeReportBody(body: Uint8Array<ArrayBuffer>, contentType: string | null): Promise<unknown> {
  const type = (contentType ?? "").toLowerCase();
  const looksLikeJson = body[0] === 0x7b; // "{"
  const isForm = type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
  if (isForm && !(looksLikeJson && type.startsWith("application/x-www-form-urlencoded"))) {
    const form = await new Response(body, { headers: { "Content-Type": contentType! } }).formData().catch(() => null);
    if (!form) return undefined;
    const fields: Record<string, string> = {};
    for (const [key, value] of form) if (typeof value === "string") fields[key] = value;
    return fields;
  }
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}

export function parseErrorReport(input: unknown): ErrorReport | null {
  const result = errorReportSchema.safeParse(input);
  return result.success ? result.data : null;
}

/** Stores a report and keeps only the latest KEEP_REPORTS rows (one DELETE statement). */
export async function saveErrorReport(db: DbOrTx, report: ErrorReport, userId: string | null) {
  await db.insert(clientErrorReports).values({
    userId,
    name: report.name,
    message: report.message,
    stack: report.stack ?? null,
    context: report.context ?? null,
    url: report.url ?? null,
    userAgent: report.userAgent ?? null,
    reportedAt: report.timestamp ?? null,
  });
  await db
    .delete(clientErrorReports)
    .where(
      notInArray(
        clientErrorReports.id,
        db.select({ id: clientErrorReports.id }).from(clientErrorReports).orderBy(desc(clientErrorReports.id)).limit(KEEP_REPORTS),
      ),
    );
}

/**
 * An unexpected server exception (a 500), stored beside the browsers' reports with where it happened:
 * `context.source = "server"`, the route (method + path) and the request id. Never throws: reporting
 * must not turn one failure into two.
 */
export async function saveServerError(db: DbOrTx, error: unknown, where: { request: Request; requestId: string }) {
  const url = new URL(where.request.url);
  const failure = error instanceof Error ? error : new Error(String(error));
  const report = parseErrorReport({
    name: failure.name || "Error",
    message: failure.message || "(sem mensagem)",
    stack: failure.stack,
    context: { source: "server", route: `${where.request.method} ${url.pathname}`, requestId: where.requestId },
    url: url.pathname + url.search,
    userAgent: where.request.headers.get("User-Agent") ?? undefined,
  });
  if (!report) return;
  await saveErrorReport(db, report, null).catch((cause) => console.error("[error-report] could not store a server error", cause));
}
