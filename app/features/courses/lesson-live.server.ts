// Lesson comments, live: the lesson's Durable Object channel (lesson-channel.server.ts) pushes "something
// changed" over WebSockets. `publishLessonComment` is called by the comment action after the comment is stored;
// `connectLessonChannel` answers the WebSocket endpoint (resources.lessons.$lessonId.live); `closeLessonSockets`
// ends a learner's channels when their access ends.
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { isUuid } from "~/lib/ids";
import { rowsOf } from "~/server/db.server";
import { refuseUpgrade, upgradeGate } from "~/server/realtime.server";
import { USER_HEADER } from "./lesson-channel-header";

const CHANNEL_UNAVAILABLE = "Atualização ao vivo indisponível.";

/**
 * Tells everyone on the lesson page that a new comment exists (they refetch through the loader).
 * Call it after the comment is committed. Never fails the request: errors are logged, and without the
 * LESSON_CHANNELS binding (unit tests, `react-router dev`) it does nothing. Awaiting it costs one
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

/**
 * The WebSocket endpoint of a lesson: past the upgrade gate (a signed-in, non-blocked learner, Teacher FLIX on),
 * the learner is handed to the lesson's Durable Object; anyone else gets a plain HTTP error and no upgrade.
 */
export async function connectLessonChannel(request: Request, context: AppLoadContext, lessonId: string): Promise<Response> {
  if (!isUuid(lessonId)) return refuseUpgrade(404, "Aula não encontrada.");
  const { user, refused } = await upgradeGate(request, context, { flag: "feature_teacher_flix" });
  if (refused) return refused;
  const channels = context.cloudflare.env.LESSON_CHANNELS;
  if (!channels) return refuseUpgrade(503, CHANNEL_UNAVAILABLE);
  const id = lessonId.toLowerCase();
  try {
    // Remember the channel, so the learner's access ending closes it (a lesson that does not exist writes nothing).
    await context.db.execute(sql`
      insert into live_connections (user_id, lesson_id) select ${user.id}, l.id from lessons l where l.id = ${id}
      on conflict (user_id, lesson_id) do update set connected_at = now()`);
    // A fresh request: the channel needs only the upgrade, not the user's cookies.
    return await channels.get(channels.idFromName(id)).fetch("https://lesson-channel/connect", {
      headers: { Upgrade: "websocket", [USER_HEADER]: user.id },
    });
  } catch (error) {
    // e.g. `react-router dev`, whose platform proxy cannot run this worker's Durable Objects: pages poll.
    console.error("[realtime] could not open the channel of lesson", lessonId, error);
    return refuseUpgrade(503, CHANNEL_UNAVAILABLE);
  }
}

/**
 * Closes a learner's lesson channels: each lesson they connected to (live_connections) is asked to close that
 * learner's sockets, and the rows go. Never fails the request; without the binding it does nothing.
 */
export async function closeLessonSockets(context: AppLoadContext, userId: string): Promise<number> {
  const channels = context.cloudflare.env.LESSON_CHANNELS;
  if (!channels) return 0;
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
    return closed.reduce((sum, n) => sum + n, 0);
  } catch (error) {
    console.error("[realtime] could not close the lesson channels of user", userId, error);
    return 0;
  }
}
