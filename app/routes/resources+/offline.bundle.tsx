// GET ?target=review | ?target=category&slug=… → the size of that offline download before it starts ({ estimate });
// POST { target, slug? } → the signed bundle to keep on the device ({ bundle }). Flashcards' flag; no credit.
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "react-router";
import { z } from "zod";
import { REFUSALS, type GameTarget } from "~/features/flashcards";
import { estimateBundle, issueBundle, type BundleDeps, type BundleRefusal } from "~/features/offline/bundle.server";
import type { RouteHandle } from "~/lib/access";
import { checkAccess } from "~/server/auth.server";
import { claimAttempt, LIMITS, minutesLeft, releaseAttempt } from "~/server/rate-limit.server";
import { BODY_MESSAGES, methodNotAllowed, readJson, refusal } from "~/server/request.server";
import { mediaBucket } from "~/server/storage.server";

export const handle: RouteHandle = { access: "user" };

const targetSchema = z.discriminatedUnion("target", [
  z.object({ target: z.literal("review") }),
  z.object({ target: z.literal("category"), slug: z.string().trim().min(1).max(100) }),
]);

const toGameTarget = (input: z.output<typeof targetSchema>): GameTarget =>
  input.target === "review" ? { kind: "review" } : { kind: "category", slug: input.slug };

const REFUSED: Record<BundleRefusal, { status: number; code: string; text: readonly [string, string] }> = {
  not_found: { status: 404, code: "category_not_found", text: REFUSALS.category_not_found },
  too_few_cards: { status: 409, code: "too_few_cards", text: REFUSALS.too_few_cards },
  nothing_to_review: { status: 409, code: "nothing_to_review", text: REFUSALS.nothing_to_review },
};
const refused = (code: BundleRefusal) => refusal(REFUSED[code].status, REFUSED[code].text.join(". "), REFUSED[code].code);

const deps = (context: AppLoadContext): BundleDeps => ({ db: context.db, env: context.cloudflare.env, bucket: () => mediaBucket(context) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const access = await checkAccess(request, context, { feature: "feature_flashcards" });
  if (access.refusal) return refusal(access.refusal.status, access.refusal.message, access.refusal.code);
  const input = targetSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!input.success) return refusal(400, BODY_MESSAGES.invalid, "invalid");
  const result = await estimateBundle(deps(context), access.user.id, toGameTarget(input.data), new Date());
  if (!result.ok) return refused(result.code);
  return Response.json({ estimate: result.estimate }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const access = await checkAccess(request, context, { feature: "feature_flashcards" });
  if (access.refusal) return refusal(access.refusal.status, access.refusal.message, access.refusal.code);
  const input = await readJson(request, targetSchema);
  const userId = access.user.id;
  // Each download stores a bundle: a script asking in a loop is stopped.
  const claim = await claimAttempt(context.db, LIMITS.offlineBundle, userId);
  if (!claim.allowed) {
    const minutes = minutesLeft(claim.retryAfterMs);
    return refusal(429, `Muitos downloads seguidos. Tente de novo em ${minutes} min.`, "rate_limited", {
      "Retry-After": String(Math.ceil(claim.retryAfterMs / 1000)),
    });
  }
  const result = await issueBundle(deps(context), userId, toGameTarget(input), new Date());
  // A refused download stored nothing: it does not count.
  if (!result.ok) {
    await releaseAttempt(context.db, claim);
    return refused(result.code);
  }
  return Response.json({ bundle: result.bundle }, { headers: { "Cache-Control": "no-store" } });
}
