// The chat screen's overlays, loaded on first use: the 'Créditos Esgotados' dialog (spec §8) and the
// mode drawer.
import { Form, Link, useNavigate } from "@remix-run/react";
import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { CloseIcon } from "~/features/shell/icons";
import type { ChatPageData } from "../types";

const button =
  "inline-flex h-11 items-center justify-center rounded-xl px-5 font-semibold focus-visible:outline-3 disabled:opacity-70";

export function CreditsDialog({ open, onOpenChange, buyTo }: { open: boolean; onOpenChange: (open: boolean) => void; buyTo: string }) {
  const navigate = useNavigate();
  const [working, setWorking] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="animate-fade-in fixed inset-0 z-50 bg-slate-950/60" />
        <Dialog.Content className="animate-fade-in fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-3xl bg-white p-6 shadow-2xl outline-none dark:bg-night-900">
          <Dialog.Title className="text-xl font-bold tracking-tight">Créditos Esgotados</Dialog.Title>
          <Dialog.Description className="mt-2 text-slate-700 dark:text-slate-200">
            Seus créditos acabaram. Para continuar jogando agora, use o botão abaixo para comprar mais créditos.
          </Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close className={`${button} border border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-night-700 dark:text-slate-100 dark:hover:bg-night-800`}>
              Voltar
            </Dialog.Close>
            <button
              type="button"
              disabled={working}
              onClick={() => {
                setWorking(true);
                navigate(buyTo);
              }}
              className={`${button} bg-indigo-600 text-white hover:bg-indigo-700`}
            >
              {working ? "Processando..." : "Comprar mais créditos"}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function ModeDrawer({ open, onOpenChange, page }: { open: boolean; onOpenChange: (open: boolean) => void; page: ChatPageData }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="animate-fade-in fixed inset-0 z-50 bg-slate-950/60" />
        <Dialog.Content className="animate-sheet-in-right fixed inset-y-0 right-0 z-50 flex w-80 max-w-[85vw] flex-col bg-white p-4 pt-[max(1rem,env(safe-area-inset-top))] shadow-2xl outline-none dark:bg-night-900">
          <div className="flex items-center justify-between">
            <Dialog.Title className="text-lg font-bold tracking-tight">Modos de conversa</Dialog.Title>
            <Dialog.Close aria-label="Fechar" className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-night-800">
              <CloseIcon />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Troque de modo: cada modo começa uma conversa nova.
          </Dialog.Description>
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
            <button type="submit" className={`${button} w-full bg-indigo-600 text-white hover:bg-indigo-700`}>
              Nova conversa
            </button>
          </Form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
