import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { type AppLoadContext, type EntryContext, type HandleErrorFunction, isRouteErrorResponse, ServerRouter } from "react-router";
import { saveServerError } from "~/features/shell";
import { NonceProvider } from "~/lib/nonce";
import {
  databaseUnavailableResponse,
  DB_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  markDatabaseUnavailable,
  wasDatabaseUnavailable,
} from "~/server/db.server";

// React Router rejects promises still pending after this; React's render is aborted a second later so their
// rejections still stream to the browser.
export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The CSP nonce (server.ts sends the policy): on React's streaming scripts, React Router's and root.tsx's.
  const nonce = loadContext.cspNonce ?? "";
  // A loader or action failed for want of the database (handleError marked it): throwing a 503
  // Response makes React Router render again with it at the root error boundary ("Serviço temporariamente
  // indisponível"), as a route error response the browser hydrates the same way.
  const errors = Object.values(routerContext.staticHandlerContext.errors ?? {});
  const showsUnavailable = errors.some((error) => isRouteErrorResponse(error) && error.status === 503);
  if (!showsUnavailable && wasDatabaseUnavailable(loadContext)) throw databaseUnavailableResponse();
  if (showsUnavailable) {
    responseStatusCode = 503;
    responseHeaders.set("Retry-After", String(DB_RETRY_AFTER_SECONDS));
    responseHeaders.set("Cache-Control", "no-store");
  }
  const controller = new AbortController();
  const timeoutId = setTimeout(() => controller.abort(), streamTimeout + 1_000);

  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
    </NonceProvider>,
    {
      nonce: nonce || undefined,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error);
        responseStatusCode = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeoutId));

  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Pages can be user-specific: never let a shared cache (or the service worker) keep them.
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * Unexpected exceptions of loaders, actions and rendering (the 500s): logged, and stored with the
 * route and the request id in the error reports table (/api/errors' store). Aborted requests are not
 * failures. Thrown Responses (4xx refusals) never reach this.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Aborted requests are not failures; the router's own 4xx (405 for a route without an action) neither.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  // The 503 handleRequest throws (above) is the answer, not a failure.
  if (error instanceof Response && error.status === 503) return;
  // The database cannot be reached: the request answers 503 (here for pages, server.ts otherwise);
  // a one-line log, and no error report (it would need the same database).
  if (isDatabaseUnavailable(error)) {
    markDatabaseUnavailable(context);
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    console.warn(`[503] ${request.method} ${new URL(request.url).pathname} (${context.requestId}): ${reason}`);
    return;
  }
  console.error(`[500] ${request.method} ${new URL(request.url).pathname} (${context.requestId})`, error);
  context.cloudflare.ctx.waitUntil(saveServerError(context.db, error, { request, requestId: context.requestId }));
};

/** The app's parts the worker entry (server.ts) uses, reached through the server build (one copy in the worker). */
export * as worker from "./worker.server";
