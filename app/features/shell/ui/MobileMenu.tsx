// The overlay sheet of small screens (18rem, from the left) with the sidebar's navigation. Loaded on
// demand by MobileMenuButton (Radix Dialog is most of its weight), so it costs nothing until used.
import { useEffect, type RefObject } from "react";
import { useLocation } from "react-router";
import { DialogCloseButton, DialogTitle, Modal } from "~/components/dialog";
import { NikaLogo } from "~/components/icons";
import type { ShellUser } from "../types";
import { NavList, SignOutButton, UserSummary } from "./ShellParts";
import { ThemeToggle } from "./ThemeToggle";

export type MobileMenuProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  appName: string;
  user: ShellUser;
  /** Where focus goes back when the sheet closes (the menu button). */
  returnFocusTo: RefObject<HTMLElement | null>;
};

export default function MobileMenu({ open, onOpenChange, appName, user, returnFocusTo }: MobileMenuProps) {
  const { pathname } = useLocation();

  // The sheet is for small screens only: close it when the window grows to the desktop layout.
  useEffect(() => {
    if (!open) return;
    const query = window.matchMedia("(min-width: 768px)");
    const onChange = () => query.matches && onOpenChange(false);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [open, onOpenChange]);

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      placement="left"
      className="md:hidden"
      overlayClassName="md:hidden"
      aria-describedby={undefined}
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        returnFocusTo.current?.focus();
      }}
    >
      <div className="flex h-14 shrink-0 items-center justify-between pr-2 pl-4">
        <DialogTitle className="flex items-center gap-2 text-lg font-bold tracking-tight">
          <NikaLogo size={28} />
          {appName}
        </DialogTitle>
        <DialogCloseButton label="Fechar menu" />
      </div>
      <nav aria-label="Menu" className="flex-1 overflow-y-auto px-3 py-2">
        <NavList pathname={pathname} onNavigate={() => onOpenChange(false)} />
      </nav>
      <div className="shrink-0 border-t border-slate-200 p-4 dark:border-night-800">
        <UserSummary user={user} />
        <div className="mt-3 flex items-center justify-between">
          <ThemeToggle showLabel />
          <SignOutButton />
        </div>
      </div>
    </Modal>
  );
}
