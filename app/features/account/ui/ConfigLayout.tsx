// /config's frame: the title and the tabs Conta, Senha, App (and Admin for admins). Each tab is its own
// URL (/config, /config/senha, /config/app, /config/admin), so every tab works without JavaScript.
import { Outlet } from "react-router";
import { SectionTabs } from "~/components/SectionTabs";

export const CONFIG_TABS = [
  { to: "/config", label: "Conta", end: true, adminOnly: false },
  { to: "/config/senha", label: "Senha", end: false, adminOnly: false },
  { to: "/config/app", label: "App", end: false, adminOnly: false },
  { to: "/config/admin", label: "Admin", end: false, adminOnly: true },
] as const;

/** `?tab=` of older links (e.g. `/config?tab=account#creditos`) → the tab's own path. */
export const TAB_PATHS: Record<string, string> = {
  account: "/config",
  conta: "/config",
  password: "/config/senha",
  app: "/config/app",
  admin: "/config/admin",
};

export function ConfigLayout({ isAdmin }: { isAdmin: boolean }) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Configurações</h1>
      <SectionTabs label="Seções das configurações" sections={CONFIG_TABS.filter((tab) => isAdmin || !tab.adminOnly)} />
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
