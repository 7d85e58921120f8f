// The overlay sheet of small screens (18rem, from the left) with the sidebar's navigation. Loaded on
// demand by MobileMenuButton (Radix Dialog is most of its weight), so it costs nothing until used.
import * as Dialog from "@radix-ui/react-dialog";
import { useLocation } from "@remix-run/react";
import { useEffect, type RefObject } from "react";
import { CloseIcon, NikaLogo } from "./icons";
import { NavList, SignOutButton, UserSummary } from "./ShellParts";
import { ThemeToggle } from "./ThemeToggle";
import type { ShellUser } from "./types";

export type MobileMenuProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  appName: string;
  user: ShellUser;
  /** Where focus goes back when the sheet closes (the menu button). */
  returnFocusTo: RefObject<HTMLElement>;
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
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="animate-fade-in fixed inset-0 z-50 bg-slate-950/60 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="animate-sheet-in fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r border-slate-200 bg-white pt-[env(safe-area-inset-top)] pb-[env(safe-area-inset-bottom)] shadow-2xl outline-none md:hidden dark:border-night-800 dark:bg-night-900"
        >
          <div className="flex h-14 shrink-0 items-center justify-between pr-2 pl-4">
            <Dialog.Title className="flex items-center gap-2 text-lg font-bold tracking-tight">
              <NikaLogo size={28} />
              {appName}
            </Dialog.Title>
            <Dialog.Close
              aria-label="Fechar menu"
              className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-night-800"
            >
              <CloseIcon />
            </Dialog.Close>
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
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
