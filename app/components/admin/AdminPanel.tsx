// The frame of the nested admin routes (Teacher FLIX, flashcards). With JavaScript: a Radix dialog over
// the parent page (a bottom drawer on small screens); closing it navigates back to the parent URL.
// Before hydration and without JavaScript (Radix portals do not server-render): the same content as a
// page section.
import { useId, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { closeButtonClass, DialogCloseButton, DialogDescription, DialogTitle, Modal } from "~/components/dialog";
import { CloseIcon } from "~/components/icons";
import { useHydrated } from "~/lib/use-hydrated";
import { ADMIN_PANEL_ID } from "./panel-id";

export { ADMIN_PANEL_ID };

/** A form action that, without JavaScript, comes back scrolled to the panel. */
export function useAnchoredAction(action: string) {
  return useHydrated() ? action : `${action}#${ADMIN_PANEL_ID}`;
}

export type AdminPanelProps = {
  title: string;
  description?: string;
  /** The parent page: closing goes back there. */
  closeTo: string;
  children: ReactNode;
};

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
          <Link to={closeTo} className={closeButtonClass()} aria-label="Fechar">
            <CloseIcon />
          </Link>
        </div>
        <div className="mt-6">{children}</div>
      </section>
    );
  }

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) navigate(closeTo, { preventScrollReset: true });
      }}
      placement="responsive"
      id={ADMIN_PANEL_ID}
      {...(description ? {} : { "aria-describedby": undefined })}
    >
      <div className="mx-auto mt-2 h-1.5 w-12 shrink-0 rounded-full bg-slate-300 md:hidden dark:bg-night-700" aria-hidden="true" />
      <div className="flex shrink-0 items-start justify-between gap-4 border-b border-slate-200 px-5 pt-3 pb-4 md:px-8 md:pt-6 dark:border-night-800">
        <div>
          <DialogTitle className="text-xl font-bold tracking-tight sm:text-2xl">{title}</DialogTitle>
          {description ? <DialogDescription className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</DialogDescription> : null}
        </div>
        <DialogCloseButton />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5 md:px-8 md:py-6">{children}</div>
    </Modal>
  );
}
