// The removal confirmation (spec §5) as a Radix alert-style dialog. Loaded on demand by MaterialsList
// (admins only), so learners' lesson pages never download Radix.
import * as Dialog from "@radix-ui/react-dialog";

const button = "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold";

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
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="animate-fade-in fixed inset-0 z-[60] bg-slate-950/60" />
        <Dialog.Content
          role="alertdialog"
          className="animate-fade-in fixed top-1/2 left-1/2 z-[60] w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-2xl outline-none dark:border-night-700 dark:bg-night-900"
        >
          <Dialog.Title className="text-lg font-bold">Remover arquivo</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-700 dark:text-slate-300">{message}</Dialog.Description>
          <p className="mt-3 truncate text-sm font-medium">{title}</p>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close className={`${button} border border-slate-300 hover:bg-slate-100 dark:border-night-700 dark:hover:bg-night-800`}>Cancelar</Dialog.Close>
            <button type="button" onClick={onConfirm} className={`${button} bg-rose-600 text-white hover:bg-rose-500`}>
              Remover
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
