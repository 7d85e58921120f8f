// The spec's session check: a signed-in page asks /resources/session when its tab comes back into view or
// its window gets focus, and every 5 minutes while visible. A blocked account goes to /blocked, a session
// that ended (expired, revoked, signed out elsewhere) to /signin. Without JavaScript the next navigation
// does the same (the server's guard).
import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";

export const SESSION_CHECK_PATH = "/resources/session";
export const SESSION_CHECK_EVERY_MS = 5 * 60_000;
/** The page was just rendered behind the server's guard: a focus closer than this to it (or to the last check) asks nothing. */
export const SESSION_CHECK_MIN_GAP_MS = 10_000;

/** Where a session check's answer sends the page (`path`: where it is now), or null to stay. */
export function sessionCheckDestination(status: number, code: unknown, path: string): string | null {
  if (status === 401) return path === "/" ? "/signin" : `/signin?redirectTo=${encodeURIComponent(path)}`;
  if (status === 403 && code === "BLOCKED") return "/blocked";
  return null; // good, or no answer worth acting on (offline, the database away): the next check tries again
}

export function useSessionCheck() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(() => {
    let lastCheck = Date.now();
    let checking = false;
    const check = async () => {
      if (checking || document.visibilityState !== "visible" || Date.now() - lastCheck < SESSION_CHECK_MIN_GAP_MS) return;
      checking = true;
      lastCheck = Date.now();
      try {
        const response = await fetch(SESSION_CHECK_PATH, { headers: { Accept: "application/json" }, cache: "no-store" });
        const body = response.status === 403 ? ((await response.json().catch(() => null)) as { code?: unknown } | null) : null;
        const to = sessionCheckDestination(response.status, body?.code, location.pathname + location.search);
        if (to) navigateRef.current(to, { replace: true });
      } catch {
        // offline: the next check tries again
      } finally {
        checking = false;
      }
    };
    const onChance = () => void check();
    document.addEventListener("visibilitychange", onChance);
    window.addEventListener("focus", onChance);
    const timer = window.setInterval(onChance, SESSION_CHECK_EVERY_MS);
    return () => {
      document.removeEventListener("visibilitychange", onChance);
      window.removeEventListener("focus", onChance);
      window.clearInterval(timer);
    };
  }, []);
}
