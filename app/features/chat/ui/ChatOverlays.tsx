// The chat screen's overlays, loaded on first use: the mode drawer (the 'Créditos Esgotados' dialog is
// the shared ~/components/CreditsDialog).
import { Form, Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { DialogCloseButton, DialogDescription, DialogTitle, Modal } from "~/components/dialog";
import type { ChatPageData } from "../types";

/** 44 px tall (touch), like the chat's other controls. */
const tall = "h-11 py-0";

export function ModeDrawer({ open, onOpenChange, page }: { open: boolean; onOpenChange: (open: boolean) => void; page: ChatPageData }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} placement="right">
      <div className="flex items-center justify-between">
        <DialogTitle className="text-lg font-bold tracking-tight">Modos de conversa</DialogTitle>
        <DialogCloseButton />
      </div>
      <DialogDescription className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Troque de modo: cada modo começa uma conversa nova.
      </DialogDescription>
      <ul className="mt-4 flex flex-col gap-2">
        {page.modes.map((mode) => (
          <li key={mode.id}>
            {mode.enabled ? (
              <Link
                to={mode.path}
                onClick={() => onOpenChange(false)}
                aria-current={mode.id === page.mode.id ? "true" : undefined}
                className={`block rounded-xl border px-4 py-3 font-semibold ${
                  mode.id === page.mode.id
                    ? "border-indigo-500 bg-indigo-50 text-indigo-900 dark:bg-indigo-400/15 dark:text-indigo-100"
                    : "border-slate-200 hover:border-indigo-300 dark:border-night-700"
                }`}
              >
                {mode.title}
              </Link>
            ) : (
              <span className="block rounded-xl border border-dashed border-slate-300 px-4 py-3 text-slate-600 dark:border-night-700 dark:text-slate-300">
                {mode.title} — indisponível
              </span>
            )}
          </li>
        ))}
      </ul>
      <Form method="post" action={`${page.basePath}?c=${page.conversationId}`} className="mt-auto" onSubmit={() => onOpenChange(false)}>
        <input type="hidden" name="intent" value="new" />
        <button type="submit" className={buttonVariants({ size: "lg", className: `${tall} w-full` })}>
          Nova conversa
        </button>
      </Form>
    </Modal>
  );
}
