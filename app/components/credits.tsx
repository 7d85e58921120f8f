// Out of credits (spec §8 "Credits"): the texts of the 'Créditos Esgotados' dialog, where buying more
// goes, and the same message inline for pages without JavaScript (the dialog, CreditsDialog.tsx, is a
// Radix portal that does not server-render; pages load it on first use).
import { Link } from "react-router";
import { buttonVariants } from "./button";
import { NoticeBox } from "./notice";

/** Where "Comprar mais créditos" and "Assinar Agora" go: the credit packs (features/billing). */
export const BUY_CREDITS_PATH = "/comprar-creditos";

export const CREDITS_EXHAUSTED_TEXT = {
  title: "Créditos Esgotados",
  description: "Seus créditos acabaram. Para continuar jogando agora, use o botão abaixo para comprar mais créditos.",
  buy: "Comprar mais créditos",
  working: "Processando...",
  back: "Voltar",
} as const;

/** The dialog's message and buttons as a box in the page; `backTo` adds the "Voltar" link. */
export function CreditsExhaustedNotice({ backTo, className }: { backTo?: string; className?: string }) {
  return (
    <NoticeBox
      notice={{ tone: "error", title: CREDITS_EXHAUSTED_TEXT.title, description: CREDITS_EXHAUSTED_TEXT.description }}
      className={className}
    >
      <div className="mt-3 flex flex-wrap gap-2">
        <Link to={BUY_CREDITS_PATH} className={buttonVariants({ size: "sm" })}>
          {CREDITS_EXHAUSTED_TEXT.buy}
        </Link>
        {backTo ? (
          <Link to={backTo} className={buttonVariants({ variant: "secondary", size: "sm" })}>
            {CREDITS_EXHAUSTED_TEXT.back}
          </Link>
        ) : null}
      </div>
    </NoticeBox>
  );
}
