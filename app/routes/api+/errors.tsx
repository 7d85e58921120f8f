import type { ActionFunctionArgs } from "react-router";
import { INVALID_REPORT, MAX_BODY_BYTES, decodeReportBody, parseErrorReport, saveErrorReport } from "~/features/shell";
import type { RouteHandle } from "~/lib/access";
import { getSessionUser } from "~/server/auth.server";
import { methodNotAllowed, readBytes } from "~/server/request.server";

export const handle: RouteHandle = { access: "public" };

/** POST /api/errors — browser error reports (see ~/features/shell/report-error). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  // sendBeacon posts text/plain; fetch posts JSON; a form post (no JS) is a form.
  const { bytes } = await readBytes(request, { maxBytes: MAX_BODY_BYTES, accept: ["json", "text", "urlencoded", "multipart"] });
  const report = parseErrorReport(await decodeReportBody(bytes, request.headers.get("Content-Type")));
  if (!report) return Response.json({ error: INVALID_REPORT }, { status: 400 });
  if (!report.userAgent) {
    const userAgent = request.headers.get("User-Agent");
    if (userAgent) report.userAgent = userAgent.slice(0, 500);
  }
  const user = await getSessionUser(request, context);
  await saveErrorReport(context.db, report, user?.id ?? null);
  return new Response(null, { status: 204 });
}

export const loader = methodNotAllowed;
