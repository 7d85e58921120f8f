// The frame of the nested admin routes. With JavaScript: a Radix dialog over the parent page (a
// bottom drawer on small screens); closing it navigates back to the parent URL. Before hydration and
// without JavaScript (Radix portals do not server-render): the same content as a page section.
import * as Dialog from "@radix-ui/react-dialog";
import { useHydrated } from "~/lib/use-hydrated";
import { Link, useNavigate } from "@remix-run/react";
import { useId, useSyncExternalStore, type ReactNode } from "react";
import { CloseIcon } from "~/features/shell/icons";

import { ADMIN_PANEL_ID } from "./panel-id";

export { ADMIN_PANEL_ID };

/** A form action that, without JavaScript, comes back scrolled to the panel. */
export function useAnchoredAction(action: string) {
  return useHydrated() ? action : `${action}#${ADMIN_PANEL_ID}`;
}

export { useHydrated };

export type AdminPanelProps = {
  title: string;
  description?: string;
  /** The parent page: closing goes back there. */
  closeTo: string;
  children: ReactNode;
};

const closeButton =
  "shrink-0 rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-night-800 dark:hover:text-white";

export function AdminPanel({ title, description, closeTo, children }: AdminPanelProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const headingId = useId();

  if (!hydrated) {
    return (
      <section
        id={ADMIN_PANEL_ID}
        aria-labelledby={headingId}
        className="mx-auto my-6 w-full max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:my-8 sm:p-8 dark:border-night-700 dark:bg-night-900"
      >
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={headingId} className="text-xl font-bold tracking-tight sm:text-2xl">
              {title}
            </h2>
            {description ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p> : null}
          </div>
          <Link to={closeTo} className={closeButton} aria-label="Fechar">
            <CloseIcon />
          </Link>
        </div>
        <div className="mt-6">{children}</div>
      </section>
    );
  }

  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open) navigate(closeTo, { preventScrollReset: true });
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="animate-fade-in fixed inset-0 z-50 bg-slate-950/60" />
        <Dialog.Content
          id={ADMIN_PANEL_ID}
          {...(description ? {} : { "aria-describedby": undefined })}
          className="animate-fade-in fixed inset-x-0 bottom-0 z-50 flex max-h-[92dvh] flex-col rounded-t-2xl border border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] shadow-2xl outline-none md:inset-x-auto md:top-1/2 md:bottom-auto md:left-1/2 md:max-h-[88dvh] md:w-[min(44rem,calc(100vw-2rem))] md:-translate-x-1/2 md:-translate-y-1/2 md:rounded-2xl dark:border-night-700 dark:bg-night-900"
        >
          <div className="mx-auto mt-2 h-1.5 w-12 shrink-0 rounded-full bg-slate-300 md:hidden dark:bg-night-700" aria-hidden="true" />
          <div className="flex shrink-0 items-start justify-between gap-4 border-b border-slate-200 px-5 pt-3 pb-4 md:px-8 md:pt-6 dark:border-night-800">
            <div>
              <Dialog.Title className="text-xl font-bold tracking-tight sm:text-2xl">{title}</Dialog.Title>
              {description ? (
                <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</Dialog.Description>
              ) : null}
            </div>
            <Dialog.Close className={closeButton} aria-label="Fechar">
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5 md:px-8 md:py-6">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
