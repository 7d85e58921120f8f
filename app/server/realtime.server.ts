// WebSockets: the one gate every upgrade endpoint goes through before its Durable Object (the lesson's comment
// channel, the learner's live conversation), and the answer a refused upgrade gets. A refusal is plain HTTP and
// no socket; what happens after the gate is the feature's (closing a learner's sockets: auth's sockets.server.ts).
import type { AppLoadContext } from "react-router";
import { ACCESS_MESSAGES, checkAccess, checkAccessNow, type SessionUser } from "./auth.server";
import { isFeatureEnabled, type FlagKey } from "./flags.server";

/** A WebSocket endpoint's refusal: plain text, never cached, no upgrade. */
export const refuseUpgrade = (status: number, message: string, headers?: HeadersInit) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

/** Browsers send Origin on WebSocket handshakes: only our own pages may open a socket. */
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
 * The checks of every WebSocket endpoint, in order: who is asking (our own origin, a signed-in, non-blocked
 * learner), then what they sent (an upgrade), then the feature's flag. `sessionNow` reads the session from the
 * database now instead of the isolate's kept copy (a paid session: a block or a sign-out counts at once).
 * The learner, or the refusal to answer with.
 */
export async function upgradeGate(
  request: Request,
  context: AppLoadContext,
  { flag, sessionNow = false }: { flag: FlagKey; sessionNow?: boolean },
): Promise<{ user: SessionUser; refused?: never } | { refused: Response; user?: never }> {
  if (!fromOwnOrigin(request, context.cloudflare.env.APP_URL)) return { refused: refuseUpgrade(403, "Origem não permitida.") };
  const { refusal, user } = sessionNow ? await checkAccessNow(request, context) : await checkAccess(request, context);
  if (refusal) return { refused: refuseUpgrade(refusal.status, refusal.message) };
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return { refused: refuseUpgrade(426, "Este endereço só aceita WebSocket.", { Upgrade: "websocket" }) };
  }
  if (!(await isFeatureEnabled(context, flag))) return { refused: refuseUpgrade(403, ACCESS_MESSAGES.FEATURE_DISABLED) };
  return { user: user! };
}
