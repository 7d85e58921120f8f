// Browser error reporter: uncaught errors and unhandled rejections are sent to POST /api/errors,
// at most 5 per page load.

export const ERROR_REPORT_URL = "/api/errors";
export const MAX_REPORTS_PER_PAGE = 5;

export type ClientErrorReport = {
  name: string;
  message: string;
  stack?: string;
  context?: Record<string, unknown>;
  url?: string;
  userAgent?: string;
  timestamp?: number;
};

/** Noise that says nothing about our code. */
const IGNORED = [/^Script error\.?$/i, /ResizeObserver loop/i];

function clip(value: unknown, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === "string" ? value : String(value);
  return text.length > max ? text.slice(0, max) : text;
}

export function reportFromError(error: unknown, context: Record<string, unknown> = {}): ClientErrorReport {
  const err = error as { name?: unknown; message?: unknown; stack?: unknown } | null | undefined;
  const isObject = typeof err === "object" && err !== null;
  let message: string;
  if (isObject && typeof err.message === "string") message = err.message;
  else {
    try {
      message = typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
    } catch {
      message = String(error);
    }
  }
  return {
    name: clip(isObject && typeof err.name === "string" ? err.name : "Error", 200)!,
    message: clip(message || "Erro sem mensagem", 2000)!,
    stack: isObject ? clip(err.stack, 8000) : undefined,
    context,
  };
}

export function createErrorReporter({
  send,
  max = MAX_REPORTS_PER_PAGE,
  now = () => Date.now(),
  page = () => ({ url: location.href, userAgent: navigator.userAgent }),
}: {
  send: (body: string) => void;
  max?: number;
  now?: () => number;
  page?: () => { url: string; userAgent: string };
}) {
  let sent = 0;
  return function report(report: ClientErrorReport): boolean {
    if (sent >= max) return false;
    if (IGNORED.some((pattern) => pattern.test(report.message))) return false;
    sent++;
    try {
      send(JSON.stringify({ ...page(), timestamp: now(), ...report }));
    } catch {
      // Reporting must never throw into the page.
    }
    return true;
  };
}

function beacon(body: string) {
  // A string body is sent as text/plain (no preflight); the endpoint parses it as JSON.
  if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(ERROR_REPORT_URL, body)) return;
  void fetch(ERROR_REPORT_URL, { method: "POST", body, keepalive: true, credentials: "same-origin" }).catch(() => {});
}

let installed = false;

/** Installs the window listeners once per page load. */
export function installErrorReporter(): void {
  if (installed || typeof window === "undefined") return;
  installed = true;
  const report = createErrorReporter({ send: beacon });
  window.addEventListener("error", (event) => {
    // Resource load errors (img/script 404) reach here without an ErrorEvent message; skip them.
    if (!(event instanceof ErrorEvent)) return;
    report(
      reportFromError(event.error ?? event.message, {
        kind: "error",
        source: event.filename || undefined,
        line: event.lineno || undefined,
        column: event.colno || undefined,
      }),
    );
  });
  window.addEventListener("unhandledrejection", (event) => {
    report(reportFromError(event.reason, { kind: "unhandledrejection" }));
  });
}
