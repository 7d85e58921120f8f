import type { users } from "~/server/schema";

/** What the protected layout (`routes/_app+/_layout`) loads for the chrome and its pages. */
export type ShellUser = Pick<typeof users.$inferSelect, "id" | "name" | "email" | "monthlyCredits" | "avatar"> & { isAdmin: boolean };

export type ShellData = {
  user: ShellUser;
  sidebarOpen: boolean;
  appName: string;
  /** Feature flags the chrome and pages may mirror (the server enforces them). */
  flags: Record<string, boolean>;
};

export const SHELL_ROUTE_ID = "routes/_app+/_layout";

/** The skip link's target: every page's <main> has this id. */
export const MAIN_ID = "conteudo";

export function creditsLabel(credits: number): string {
  return `${credits} ${credits === 1 ? "crédito" : "créditos"}`;
}

export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}
