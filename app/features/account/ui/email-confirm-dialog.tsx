// The e-mail change's confirm step with JavaScript (loaded on first use: Radix is most of its weight).
import { useState } from "react";
import { DialogDescription, DialogTitle, Modal } from "~/components/dialog";
import { EmailConfirmForm } from "./email-confirm-form";

export function EmailConfirmDialog({ email }: { email: string }) {
  const [open, setOpen] = useState(true);
  return (
    <Modal open={open} onOpenChange={setOpen}>
      <DialogTitle className="text-lg font-semibold">Confirmar alteração de email</DialogTitle>
      <DialogDescription className="sr-only">Enviaremos um link de confirmação para o novo endereço.</DialogDescription>
      <EmailConfirmForm email={email} onCancel={() => setOpen(false)} />
    </Modal>
  );
}
