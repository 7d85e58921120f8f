// A learner's own pronunciation recording (R2), for replay next to the reference; nobody else's.
// Honours Range requests like the chat audio: media elements seek and Safari insists on them.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { attemptRecordingKey } from "~/features/pronunciation/attempts.server";
import type { RouteHandle } from "~/lib/access";
import { isUuid } from "~/lib/ids";
import { checkAccess } from "~/server/auth.server";
import { mediaBucket, serveObject } from "~/server/storage.server";

export const handle: RouteHandle = { access: "user" };

const notFound = () =>
  new Response("Áudio não encontrado", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const attemptId = params.attemptId ?? "";
  if (!isUuid(attemptId)) return notFound();
  const { user, refusal } = await checkAccess(request, context);
  if (refusal) {
    return new Response(refusal.message, {
      status: refusal.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const key = await attemptRecordingKey(context.db, user.id, attemptId.toLowerCase());
  if (!key) return notFound();
  const served = await serveObject(mediaBucket(context), key, {
    request,
    disposition: "inline",
    cacheControl: "private, max-age=31536000, immutable",
    ranges: true,
  });
  return served ?? notFound();
}
