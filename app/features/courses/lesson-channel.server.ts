// One Durable Object per lesson (`idFromName(lessonId)`): the WebSocket channel that tells every open
// lesson page that a new comment exists. Sockets are accepted through the Hibernation API, so a lesson
// whose viewers are idle costs nothing; keepalive pings are answered by the runtime without waking it.
// Messages carry no comment content — clients refetch through the lesson loader, which enforces auth.
import { DurableObject } from "cloudflare:workers";
import type { Env, LessonChannelObject } from "~/server/env";
import { USER_HEADER } from "./lesson-channel-header";

/** What a lesson channel sends to its sockets (besides "pong"). */
export type LiveMessage = { type: "comment"; lessonId: string };

export class LessonChannel extends DurableObject<Env> implements LessonChannelObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Answered by the runtime itself: a "ping" never wakes a hibernated channel.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** Accepts a WebSocket upgrade (the worker has already checked who is asking). */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426, headers: { Upgrade: "websocket" } });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    // Tagged with the user (set by the worker after its own checks), so an admin's block can close it.
    const userId = request.headers.get(USER_HEADER);
    this.ctx.acceptWebSocket(server, userId ? [userId] : []);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** RPC from `publishLessonComment`: tells every socket of the lesson. Returns how many were told. */
  async notifyComment(lessonId: string): Promise<number> {
    const message = JSON.stringify({ type: "comment", lessonId } satisfies LiveMessage);
    let told = 0;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(message);
        told++;
      } catch {
        // A socket that is closing; the runtime drops it.
      }
    }
    return told;
  }

  /** RPC from `closeLessonSockets` (the learner signed out or was blocked): closes that user's sockets. Returns how many. */
  async closeUser(userId: string): Promise<number> {
    let closed = 0;
    for (const socket of this.ctx.getWebSockets(userId)) {
      try {
        socket.close(1008, "blocked");
        closed++;
      } catch {
        // Already closing.
      }
    }
    return closed;
  }

  /** Only keepalives are expected (normally answered by the auto-response above); the rest is ignored. */
  async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    if (message === "ping") socket.send("pong");
  }

  /** Completes the closing handshake the client started (1005/1006 cannot be sent back). */
  async webSocketClose(socket: WebSocket, code: number, reason: string) {
    try {
      socket.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }

  async webSocketError(socket: WebSocket) {
    try {
      socket.close(1011, "error");
    } catch {
      // Already closed.
    }
  }
}
