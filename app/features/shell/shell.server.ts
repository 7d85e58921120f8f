import type { AppLoadContext } from "react-router";
import { requireUser } from "~/server/auth.server";
import { FLAG_KEYS, getFlags } from "~/server/flags.server";
import { readSidebarOpen } from "./sidebar-state";
import type { ShellData } from "./types";

/** Loader body of the protected layout: guard, user summary, sidebar state (cookie), flags. */
export async function loadShell(request: Request, context: AppLoadContext): Promise<ShellData> {
  const user = await requireUser(request, context);
  const flags = await getFlags(context);
  return {
    user: { id: user.id, name: user.name, email: user.email, isAdmin: user.isAdmin, monthlyCredits: user.monthlyCredits, avatar: user.avatar },
    sidebarOpen: readSidebarOpen(request.headers.get("Cookie")),
    appName: flags.app_name,
    flags: Object.fromEntries(FLAG_KEYS.map((key) => [key, flags[key]])),
  };
}
