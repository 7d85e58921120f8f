// Realtime: Durable Object channels (one per lesson) that push "something changed" over WebSockets.
// `publishLessonComment` is called by the comment action after the comment is stored;
// `connectLessonChannel` answers the WebSocket endpoint (resources.lessons.$lessonId.live).
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { isUuid } from "~/lib/ids";
import { ACCESS_MESSAGES, checkAccess } from "./auth.server";
import { rowsOf } from "./db.server";
import { isFeatureEnabled } from "./flags.server";

/**
 * Tells everyone on the lesson page that a new comment exists (they refetch through the loader).
 * Call it after the comment is committed. Never fails the request: errors are logged, and without the
 * LESSON_CHANNELS binding (unit tests, `remix vite:dev`) it does nothing. Awaiting it costs one
 * Durable Object round trip; wrap it in `context.cloudflare.ctx.waitUntil` to not wait at all.
 */
export async function publishLessonComment(context: AppLoadContext, lessonId: string): Promise<void> {
  const channels = context.cloudflare.env.LESSON_CHANNELS;
  if (!channels) return;
  try {
    const id = lessonId.toLowerCase();
    await channels.get(channels.idFromName(id)).notifyComment(id);
  } catch (error) {
    console.error("[realtime] could not publish the new comment of lesson", lessonId, error);
  }
}

/** A WebSocket endpoint's refusal: plain text, never cached, no upgrade. */
export const refuseUpgrade = (status: number, message: string, headers?: HeadersInit) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

/** Browsers send Origin on WebSocket handshakes: only our own pages may open the channel. */
export function fromOwnOrigin(request: Request, appUrl: string | undefined) {
  const origin = request.headers.get("Origin");
  if (!origin) return true; // not a browser: it must still present a valid session cookie
  if (origin === new URL(request.url).origin) return true;
  try {
    return appUrl ? origin === new URL(appUrl).origin : false;
  } catch {
    return false;
  }
}

/**
 * The WebSocket endpoint of a lesson: a signed-in, non-blocked user with Teacher FLIX enabled is
 * handed to the lesson's Durable Object; anyone else gets a plain HTTP error and no upgrade.
 */
export async function connectLessonChannel(request: Request, context: AppLoadContext, lessonId: string): Promise<Response> {
  const env = context.cloudflare.env;
  if (!isUuid(lessonId)) return refuseUpgrade(404, "Aula não encontrada.");
  // Order of checks: who is asking (origin, session), then what they sent (an upgrade), then the flag.
  if (!fromOwnOrigin(request, env.APP_URL)) return refuseUpgrade(403, "Origem não permitida.");
  const { refusal, user } = await checkAccess(request, context);
  if (refusal) return refuseUpgrade(refusal.status, refusal.message);
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return refuseUpgrade(426, "Este endereço só aceita WebSocket.", { Upgrade: "websocket" });
  }
  if (!(await isFeatureEnabled(context, "feature_teacher_flix"))) return refuseUpgrade(403, ACCESS_MESSAGES.FEATURE_DISABLED);
  const channels = env.LESSON_CHANNELS;
  if (!channels) return refuseUpgrade(503, "Atualização ao vivo indisponível.");
  const id = lessonId.toLowerCase();
  try {
    // Remember the channel, so blocking this user closes it (a lesson that does not exist writes nothing).
    await context.db.execute(sql`
      insert into live_connections (user_id, lesson_id) select ${user!.id}, l.id from lessons l where l.id = ${id}
      on conflict (user_id, lesson_id) do update set connected_at = now()`);
    // A fresh request: the channel needs only the upgrade, not the user's cookies.
    return await channels.get(channels.idFromName(id)).fetch("https://lesson-channel/connect", {
      headers: { Upgrade: "websocket", "X-Nika-User": user!.id /* lesson-channel's USER_HEADER */ },
    });
  } catch (error) {
    // e.g. `remix vite:dev`, whose platform proxy cannot run this worker's Durable Objects: pages poll.
    console.error("[realtime] could not open the channel of lesson", lessonId, error);
    return refuseUpgrade(503, "Atualização ao vivo indisponível.");
  }
}

/**
 * Closes every live connection of a user (an admin blocked them): the channels of the lessons the user
 * connected to (live_connections) are asked to close that user's sockets, and the rows go; their live spoken
 * session (Conversa ao vivo), if one runs, ends. Never fails
 * the request; without the binding it does nothing.
 */
export async function closeUserConnections(context: AppLoadContext, userId: string): Promise<number> {
  const live = context.cloudflare.env.LIVE_CONVERSATIONS;
  const liveClosed = live
    ? await live
        .get(live.idFromName(userId))
        .closeUser(userId)
        .catch(() => 0)
    : 0;
  const channels = context.cloudflare.env.LESSON_CHANNELS;
  if (!channels) return liveClosed;
  try {
    const rows = rowsOf(await context.db.execute(sql`delete from live_connections where user_id = ${userId} returning lesson_id`));
    const closed = await Promise.all(
      rows.map((row) =>
        channels
          .get(channels.idFromName(String(row.lesson_id).toLowerCase()))
          .closeUser(userId)
          .catch(() => 0),
      ),
    );
    return closed.reduce((sum, n) => sum + n, liveClosed);
  } catch (error) {
    console.error("[realtime] could not close the connections of user", userId, error);
    return 0;
  }
}
