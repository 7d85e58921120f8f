// The removal confirmation (spec §5) as a Radix alert-style dialog. Loaded on demand by MaterialsList
// (admins only), so learners' lesson pages never download Radix.
import { buttonVariants } from "~/components/button";
import { DialogClose, DialogDescription, DialogTitle, Modal } from "~/components/dialog";

export default function RemoveMaterialDialog({
  open,
  onOpenChange,
  title,
  message,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: string;
  onConfirm: () => void;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} layer="raised" role="alertdialog">
      <DialogTitle className="text-lg font-bold">Remover arquivo</DialogTitle>
      <DialogDescription className="mt-2 text-sm text-slate-700 dark:text-slate-300">{message}</DialogDescription>
      <p className="mt-3 truncate text-sm font-medium">{title}</p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <DialogClose className={buttonVariants({ variant: "secondary" })}>Cancelar</DialogClose>
        <button type="button" onClick={onConfirm} className={buttonVariants({ variant: "danger" })}>
          Remover
        </button>
      </div>
    </Modal>
  );
}
