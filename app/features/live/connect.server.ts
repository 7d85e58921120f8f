// The WebSocket endpoint of Conversa ao vivo (/resources/live/:conversationId): every check happens here, in the
// worker, before the upgrade reaches the learner's LiveConversation object; a refusal is a plain HTTP answer and
// no socket. The object is one per learner, so a second tab lands on the same object and takes the session over.
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { CHAT_MODE_INFO, type ChatModeId } from "~/features/conversation";
import { isUuid } from "~/lib/ids";
import { ACCESS_MESSAGES } from "~/server/auth.server";
import { rowsOf } from "~/server/db.server";
import { isFeatureEnabled } from "~/server/flags.server";
import { claimAttempt, LIMITS, minutesLeft } from "~/server/rate-limit.server";
import { refuseUpgrade as refuse, upgradeGate } from "~/server/realtime.server";
import { LIVE_HEADERS, LIVE_MODES, realtimeConfig } from "./config.server";

export const LIVE_UNAVAILABLE = "Conversa ao vivo indisponível.";

export async function connectLiveSession(request: Request, context: AppLoadContext, conversationId: string): Promise<Response> {
  const env = context.cloudflare.env;
  if (!isUuid(conversationId)) return refuse(404, "Conversa não encontrada");
  // The session is read now, not kept: a block or a sign-out counts at once for a paid session.
  const { user, refused } = await upgradeGate(request, context, { flag: "feature_chat_live", sessionNow: true });
  if (refused) return refused;
  if (!realtimeConfig(env)) return refuse(503, LIVE_UNAVAILABLE);
  const [row] = rowsOf<{ mode: ChatModeId; credits: number }>(
    await context.db.execute(sql`
      select c.mode, u.monthly_credits as credits from chat_conversations c join users u on u.id = c.user_id
      where c.id = ${conversationId} and c.user_id = ${user.id}`),
  );
  if (!row || !LIVE_MODES.includes(row.mode)) return refuse(404, "Conversa não encontrada");
  const modeFlag = CHAT_MODE_INFO[row.mode].flag;
  if (modeFlag && !(await isFeatureEnabled(context, modeFlag))) return refuse(403, ACCESS_MESSAGES.FEATURE_DISABLED);
  if (Number(row.credits) <= 0) return refuse(402, "Seus créditos acabaram.");
  // A script reconnecting in a loop would open a provider session each time.
  const claim = await claimAttempt(context.db, LIMITS.liveConnect, user.id);
  if (!claim.allowed) {
    return refuse(429, `Muitas conexões seguidas. Tente de novo em ${minutesLeft(claim.retryAfterMs)} min.`, {
      "Retry-After": String(Math.ceil(claim.retryAfterMs / 1000)),
    });
  }
  const objects = env.LIVE_CONVERSATIONS;
  if (!objects) return refuse(503, LIVE_UNAVAILABLE); // `remix vite:dev` runs no Durable Objects
  const resume = new URL(request.url).searchParams.get("resume");
  try {
    // A fresh request: the object needs only the upgrade and who it is for, never the learner's cookies.
    return await objects.get(objects.idFromName(user.id)).fetch("https://live-conversation/connect", {
      headers: {
        Upgrade: "websocket",
        [LIVE_HEADERS.user]: user.id,
        [LIVE_HEADERS.conversation]: conversationId.toLowerCase(),
        ...(resume && isUuid(resume) ? { [LIVE_HEADERS.resume]: resume.toLowerCase() } : {}),
      },
    });
  } catch (error) {
    console.error("[live] could not reach the live conversation object", error);
    return refuse(503, LIVE_UNAVAILABLE);
  }
}

/** Ends the learner's live spoken session, if one runs (their access ended). Without the binding it does nothing. */
export async function closeLiveSession(context: AppLoadContext, userId: string): Promise<number> {
  const objects = context.cloudflare.env.LIVE_CONVERSATIONS;
  if (!objects) return 0;
  return objects
    .get(objects.idFromName(userId))
    .closeUser(userId)
    .catch(() => 0);
}
