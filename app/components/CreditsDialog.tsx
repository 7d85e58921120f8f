// The 'Créditos Esgotados' dialog (spec §8): the chat and the flashcards open it when an action answers
// CREDITS_EXHAUSTED. Load it on first use (React.lazy): Radix is most of its weight. Without JavaScript
// pages show CreditsExhaustedNotice (./credits) instead.
import { useState } from "react";
import { useNavigate } from "react-router";
import { buttonVariants } from "./button";
import { CREDITS_EXHAUSTED_TEXT } from "./credits";
import { DialogClose, DialogDescription, DialogTitle, Modal } from "./dialog";

/** 44 px tall (touch). */
const tall = "h-11 py-0";

export function CreditsDialog({ open, onOpenChange, buyTo }: { open: boolean; onOpenChange: (open: boolean) => void; buyTo: string }) {
  const navigate = useNavigate();
  const [working, setWorking] = useState(false);
  return (
    <Modal open={open} onOpenChange={onOpenChange}>
      <DialogTitle className="text-xl font-bold tracking-tight">{CREDITS_EXHAUSTED_TEXT.title}</DialogTitle>
      <DialogDescription className="mt-2 text-slate-700 dark:text-slate-200">{CREDITS_EXHAUSTED_TEXT.description}</DialogDescription>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogClose className={buttonVariants({ variant: "secondary", size: "lg", className: tall })}>
          {CREDITS_EXHAUSTED_TEXT.back}
        </DialogClose>
        <button
          type="button"
          disabled={working}
          onClick={() => {
            setWorking(true);
            navigate(buyTo);
          }}
          className={buttonVariants({ size: "lg", className: tall })}
        >
          {working ? CREDITS_EXHAUSTED_TEXT.working : CREDITS_EXHAUSTED_TEXT.buy}
        </button>
      </div>
    </Modal>
  );
}
