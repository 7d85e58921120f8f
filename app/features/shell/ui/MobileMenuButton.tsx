// Small screens: the menu button opens the navigation in an overlay sheet. Needs JavaScript; the
// bottom navigation covers navigation without it. The sheet's code loads on first use (or intent).
import { lazy, Suspense, useRef, useState } from "react";
import { MenuIcon } from "~/components/icons";
import type { ShellUser } from "../types";

const loadSheet = () => import("./MobileMenu");
const MobileMenu = lazy(loadSheet);

export function MobileMenuButton({
  open,
  onOpenChange,
  appName,
  user,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  appName: string;
  user: ShellUser;
}) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [used, setUsed] = useState(false);
  const preload = () => void loadSheet();
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label="Abrir menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={preload}
        onPointerDown={preload}
        onFocus={preload}
        onClick={() => onOpenChange(true)}
        className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-night-800"
      >
        <MenuIcon size={22} />
      </button>
      {open || used ? (
        <Suspense fallback={null}>
          <MobileMenu
            open={open}
            onOpenChange={(next) => {
              setUsed(true);
              onOpenChange(next);
            }}
            appName={appName}
            user={user}
            returnFocusTo={buttonRef}
          />
        </Suspense>
      ) : null}
    </>
  );
}
