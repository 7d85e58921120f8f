// GET /resources/preload: what the browser warms once per session after sign-in (spec §9): the flashcard
// category tiles, the core game assets, then the catalogue's module pictures — each group only while its
// feature is on. Asked for by the shell's script 1 s after the first signed-in page.
import type { LoaderFunctionArgs } from "react-router";
import { moduleImageUrls } from "~/features/courses/catalog.server";
import { flashcardsPreloadUrls } from "~/features/flashcards";
import type { RouteHandle } from "~/lib/access";
import { checkAccess } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { refusal } from "~/server/request.server";

export const handle: RouteHandle = { access: "user" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const access = await checkAccess(request, context);
  if (access.refusal) return refusal(access.refusal.status, access.refusal.message, access.refusal.code);
  const flags = await getFlags(context);
  const urls = [
    ...(flags.feature_flashcards ? flashcardsPreloadUrls() : []),
    ...(flags.feature_teacher_flix ? await moduleImageUrls(context.db) : []),
  ];
  return Response.json({ urls }, { headers: { "Cache-Control": "private, max-age=300" } });
}
