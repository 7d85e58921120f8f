// Every feature's "close this learner's sockets", composed: run when a learner's access ends — sign-out, a
// password reset, a confirmed e-mail change (here), a password change (account), an admin's block (admin). A
// feature with sockets of its own exports its closer through its index and adds it here.
import type { AppLoadContext } from "react-router";
import { closeLessonSockets } from "~/features/courses";
import { closeLiveSession } from "~/features/live";

const SOCKET_CLOSERS: readonly ((context: AppLoadContext, userId: string) => Promise<number>)[] = [closeLiveSession, closeLessonSockets];

/** Closes every socket of a learner whose access ended; never fails the request. Returns how many were closed. */
export async function closeUserConnections(context: AppLoadContext, userId: string): Promise<number> {
  const closed = await Promise.all(SOCKET_CLOSERS.map((close) => close(context, userId).catch(() => 0)));
  return closed.reduce((sum, n) => sum + n, 0);
}
