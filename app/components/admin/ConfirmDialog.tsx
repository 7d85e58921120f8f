// A confirmation before a destructive admin action (remove a material, delete a flashcard), as a
// Radix alert-style dialog over the page (or over an admin panel: the raised layer). Loaded on demand
// (React.lazy) by the lists that use it, so pages of learners never download Radix. Without
// JavaScript those lists confirm on a page section instead.
import { buttonVariants } from "~/components/button";
import { DialogClose, DialogDescription, DialogTitle, Modal } from "~/components/dialog";

export default function ConfirmDialog({
  open,
  onOpenChange,
  heading,
  message,
  subject,
  confirmLabel,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "Remover arquivo" */
  heading: string;
  message: string;
  /** What is about to go (a file's title, a card's word). */
  subject: string;
  /** "Remover" */
  confirmLabel: string;
  onConfirm: () => void;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} layer="raised" role="alertdialog">
      <DialogTitle className="text-lg font-bold">{heading}</DialogTitle>
      <DialogDescription className="mt-2 text-sm text-slate-700 dark:text-slate-300">{message}</DialogDescription>
      <p className="mt-3 truncate text-sm font-medium">{subject}</p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <DialogClose className={buttonVariants({ variant: "secondary" })}>Cancelar</DialogClose>
        <button type="button" onClick={onConfirm} className={buttonVariants({ variant: "danger" })}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
