// The navigation chrome's background handler (spec §2): an e-mail change link that lands on any page
// (`/?token_hash=…&type=email_change`) goes to /confirm-email — on the server, by the root loader, so
// it works without JavaScript — and a `#message=Confirmation+link+accepted…` hash (the hosted auth's
// "first of two links accepted") shows the success toast.
import { useEffect } from "react";
import { toast } from "~/components/Toaster";

/** Where an e-mail change link that landed on `url` belongs, or null. */
export function emailChangeLinkTarget(url: URL): string | null {
  if (url.pathname === "/confirm-email") return null;
  const token = url.searchParams.get("token_hash") ?? url.searchParams.get("token");
  if (!token || url.searchParams.get("type") !== "email_change") return null;
  return `/confirm-email?token_hash=${encodeURIComponent(token)}&type=email_change`;
}

export const CONFIRMATION_ACCEPTED_TOAST = {
  type: "success",
  title: "Link de confirmação aceito",
  description: "Confirme também o link enviado para o outro email para concluir a alteração.",
} as const;

/** True for a hash like `#message=Confirmation+link+accepted.+Please+proceed…`. */
export function isConfirmationAcceptedHash(hash: string): boolean {
  const message = new URLSearchParams(hash.replace(/^#/, "")).get("message");
  return message !== null && /^confirmation link accepted/i.test(message);
}

/** Shows the toast once and drops the hash from the address bar. */
export function useConfirmationHashToast() {
  useEffect(() => {
    if (!isConfirmationAcceptedHash(window.location.hash)) return;
    toast(CONFIRMATION_ACCEPTED_TOAST);
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  }, []);
}
