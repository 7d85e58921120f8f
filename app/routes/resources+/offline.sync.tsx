// POST the offline queue's answers (JSON, ≤ 500) → which were accepted now, accepted before, and refused and why.
import type { ActionFunctionArgs } from "react-router";
import { SYNC_MAX_BYTES, syncAnswers, syncSchema } from "~/features/offline/sync.server";
import type { RouteHandle } from "~/lib/access";
import { checkAccess, forgetUserSessions } from "~/server/auth.server";
import { methodNotAllowed, readJson, refusal } from "~/server/request.server";

export const handle: RouteHandle = { access: "user" };

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const access = await checkAccess(request, context, { feature: "feature_flashcards" });
  if (access.refusal) return refusal(access.refusal.status, access.refusal.message, access.refusal.code);
  const input = await readJson(request, syncSchema, SYNC_MAX_BYTES);
  const result = await syncAnswers({ db: context.db, env: context.cloudflare.env }, access.user.id, input, new Date());
  // The queue may land while / is loading (back online on the home page): "Hoje" kept meanwhile is dropped.
  forgetUserSessions(context, access.user.id);
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
}

export const loader = () => methodNotAllowed();
