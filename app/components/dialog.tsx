// The one wrapper over Radix Dialog: overlay, portal and a content panel placed as a centred dialog,
// a side sheet or a responsive panel (bottom drawer under 768 px, centred above). Radix is most of a
// dialog's weight, so screens load their dialogs on first use (React.lazy) and only those chunks pull
// this module in. Portals do not server-render: without JavaScript, show the content another way.
import * as RadixDialog from "@radix-ui/react-dialog";
import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { buttonVariants } from "./button";
import { cn } from "./cn";
import { CloseIcon } from "./icons";

export const DialogTitle = RadixDialog.Title;
export const DialogDescription = RadixDialog.Description;
export const DialogClose = RadixDialog.Close;

const PLACEMENTS = {
  /** A centred box (confirmations, short messages). */
  center:
    "animate-fade-in top-1/2 left-1/2 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 p-6 dark:border-night-700",
  /** A full-height sheet from the left (18rem). */
  left: "animate-sheet-in inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col border-r border-slate-200 pt-[env(safe-area-inset-top)] pb-[env(safe-area-inset-bottom)] dark:border-night-800",
  /** A full-height sheet from the right (20rem). */
  right: "animate-sheet-in-right inset-y-0 right-0 flex w-80 max-w-[85vw] flex-col p-4 pt-[max(1rem,env(safe-area-inset-top))]",
  /** A bottom drawer on small screens, a centred dialog from 768 px. */
  responsive:
    "animate-fade-in inset-x-0 bottom-0 flex max-h-[92dvh] flex-col rounded-t-2xl border border-slate-200 pb-[env(safe-area-inset-bottom)] md:inset-x-auto md:top-1/2 md:bottom-auto md:left-1/2 md:max-h-[88dvh] md:w-[min(44rem,calc(100vw-2rem))] md:-translate-x-1/2 md:-translate-y-1/2 md:rounded-2xl dark:border-night-700",
} as const;

export type ModalProps = Omit<ComponentPropsWithoutRef<typeof RadixDialog.Content>, "className"> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  placement?: keyof typeof PLACEMENTS;
  /** "raised" stacks over another dialog (a confirmation opened from an admin panel). */
  layer?: "base" | "raised";
  className?: string;
  overlayClassName?: string;
  children: ReactNode;
};

/**
 * A modal dialog. Content props (id, role, aria-describedby, onCloseAutoFocus…) go to Radix's Content;
 * pass `aria-describedby={undefined}` when there is no DialogDescription.
 */
export function Modal({
  open,
  onOpenChange,
  placement = "center",
  layer = "base",
  className,
  overlayClassName,
  children,
  ...content
}: ModalProps) {
  const z = layer === "raised" ? "z-[60]" : "z-50";
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={cn("animate-fade-in fixed inset-0 bg-slate-950/60", z, overlayClassName)} />
        <RadixDialog.Content
          {...content}
          className={cn("fixed bg-white shadow-2xl outline-none dark:bg-night-900", z, PLACEMENTS[placement], className)}
        >
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The × in a dialog's corner. */
export function DialogCloseButton({ label = "Fechar", className }: { label?: string; className?: string }) {
  return (
    <RadixDialog.Close aria-label={label} className={closeButtonClass(className)}>
      <CloseIcon />
    </RadixDialog.Close>
  );
}

/** The close button's look, also for a plain link that closes a page section. */
export const closeButtonClass = (className?: string) => buttonVariants({ variant: "ghost", size: "icon", className });
