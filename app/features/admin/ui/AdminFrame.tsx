// /admin's frame: the title and its sections (Painel, Usuários), each its own URL.
import type { ReactNode } from "react";
import { SectionTabs } from "~/components/SectionTabs";

const SECTIONS = [
  { to: "/admin", label: "Painel", end: true },
  { to: "/admin/users", label: "Usuários", end: false },
] as const;

export function AdminFrame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Administração</h1>
      <SectionTabs label="Seções da administração" sections={SECTIONS} />
      <div className="mt-6">{children}</div>
    </div>
  );
}
