// Sidebar expanded/collapsed state, kept in the `sidebar:state` cookie for 7 days (spec §2, §9).
// Shared by the server (layout loader, /resources/sidebar) and the browser (instant toggle).

export const SIDEBAR_COOKIE = "sidebar:state";
export const SIDEBAR_COOKIE_MAX_AGE = 604800;

/** Reads the cookie from a Cookie header; anything but "false" means expanded (the default). */
export function readSidebarOpen(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return true;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === SIDEBAR_COOKIE) return part.slice(eq + 1).trim() !== "false";
  }
  return true;
}

/** Set-Cookie value (also valid for `document.cookie`). Not httpOnly: the page writes it too. */
export function sidebarCookie(open: boolean, { secure = false }: { secure?: boolean } = {}): string {
  return `${SIDEBAR_COOKIE}=${open}; Path=/; Max-Age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax${secure ? "; Secure" : ""}`;
}
