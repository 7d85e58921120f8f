// A learner's own pronunciation recording (R2), for replay next to the reference; nobody else's.
// Honours Range requests like the chat audio: media elements seek and Safari insists on them.
import type { LoaderFunctionArgs } from "react-router";
import { attemptRecordingKey } from "~/features/pronunciation/attempts.server";
import type { RouteHandle } from "~/lib/access";
import { isUuid } from "~/lib/ids";
import { checkAccess } from "~/server/auth.server";
import { notFound, refusal } from "~/server/request.server";
import { mediaBucket, serveObject } from "~/server/storage.server";

export const handle: RouteHandle = { access: "user" };

const audioNotFound = () => notFound("Áudio não encontrado");

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const attemptId = params.attemptId ?? "";
  if (!isUuid(attemptId)) return audioNotFound();
  const access = await checkAccess(request, context);
  if (access.refusal) return refusal(access.refusal.status, access.refusal.message, access.refusal.code);
  const key = await attemptRecordingKey(context.db, access.user.id, attemptId.toLowerCase());
  if (!key) return audioNotFound();
  const served = await serveObject(mediaBucket(context), key, {
    request,
    disposition: "inline",
    cacheControl: "private, max-age=31536000, immutable",
    ranges: true,
  });
  return served ?? audioNotFound();
}
