// Navigation chrome (spec §2 "Navigation chrome").
import { BookIcon, ChartIcon, ChatIcon, FlaskIcon, HomeIcon, SettingsIcon, VideoIcon, type IconComponent } from "~/components/icons";

export type NavItem = {
  to: string;
  label: string;
  icon: IconComponent;
  /** Other path prefixes that belong to this section (e.g. the Labs experiments). */
  also?: readonly string[];
};

const LABS_PAGES = ["/flashcard-v2", "/pronunciation-game", "/english-level-test"] as const;

/**
 * The app's sections, in order; `shortLabel` is the bottom navigation's narrower label where it differs. The bottom
 * navigation keeps the spec's five; `sidebarOnly` sections are in the sidebar and the mobile menu sheet.
 */
const SECTIONS: readonly (NavItem & { shortLabel?: string; sidebarOnly?: true })[] = [
  { to: "/", label: "Início", icon: HomeIcon },
  { to: "/progresso", label: "Progresso", icon: ChartIcon, sidebarOnly: true },
  { to: "/caderno", label: "Meu caderno", icon: BookIcon, sidebarOnly: true },
  { to: "/chat-with-nika", label: "Chat with Nika", shortLabel: "Chat Nika", icon: ChatIcon, also: ["/chat"] },
  { to: "/courses", label: "Teacher FLIX", shortLabel: "Cursos", icon: VideoIcon },
  { to: "/labs", label: "Labs", icon: FlaskIcon, also: LABS_PAGES },
  { to: "/config", label: "Configurações", shortLabel: "Config", icon: SettingsIcon, also: ["/admin"] },
];

/** Desktop sidebar and the mobile overlay sheet. */
export const SIDEBAR_ITEMS: readonly NavItem[] = SECTIONS;

/** Mobile bottom navigation. */
export const BOTTOM_ITEMS: readonly NavItem[] = SECTIONS.filter((s) => !s.sidebarOnly).map(({ shortLabel, sidebarOnly: _, ...item }) => ({
  ...item,
  label: shortLabel ?? item.label,
}));

const underPrefix = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(prefix + "/");

/** Whether a nav item is the current section: "/" only on the home page, others by path prefix. */
export function isNavItemActive(item: Pick<NavItem, "to" | "also">, pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (item.to === "/") return path === "/";
  return [item.to, ...(item.also ?? [])].some((prefix) => underPrefix(path, prefix));
}
