// GET /resources/session: whether this browser's session still lets it in, read from the database now. Asked
// by signed-in pages on tab focus and every 5 minutes (features/shell/ui/use-session-check.ts), which go to
// /blocked or /signin on a refusal. 204 while the session is good; otherwise the refusal: 401 (signed out,
// expired or revoked) or 403 with code BLOCKED.
import type { LoaderFunctionArgs } from "react-router";
import type { RouteHandle } from "~/lib/access";
import { checkAccessNow } from "~/server/auth.server";
import { refusal } from "~/server/request.server";

export const handle: RouteHandle = { access: "user" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const access = await checkAccessNow(request, context);
  if (access.refusal) return refusal(access.refusal.status, access.refusal.message, access.refusal.code);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
