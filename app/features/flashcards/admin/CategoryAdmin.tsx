// The admin's list of a category's cards (decision 0012): picture, word, translation, distractor
// group, where the sound comes from and a "Oculto" badge, in game order, with a small POST form per
// control — move up/down, hide/show, delete (confirmed: a dialog with JavaScript, a section of this
// page without) — and links to the nested add/edit panels, rendered where `children` go.
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { FormErrors } from "~/components/admin/AdminForm";
import { ConfirmForm, ConfirmSection, HiddenFields } from "~/components/admin/ConfirmForm";
import { ADMIN_PANEL_ID } from "~/components/admin/panel-id";
import { buttonVariants } from "~/components/button";
import { ArrowLeftIcon, PencilIcon, TrashIcon } from "~/components/icons";
import { formErrorsOf, type AdminActionData } from "~/lib/admin-forms";
import type { AdminCard, AudioSource, CategoryAdmin as CategoryAdminData } from "./cards.server";
import { cardAnchor, categoryAdminPath, CONFIRM_DELETE_ID, editCardPath, FLASHCARDS_PATH, newCardPath } from "./paths";
import { MESSAGES } from "./schemas";

const AUDIO_LABELS: Record<AudioSource, string> = {
  upload: "áudio enviado",
  shipped: "áudio original",
  voice: "voz do navegador",
};

const deletion = (card: AdminCard) => ({
  heading: "Excluir cartão",
  message: MESSAGES.deleteConfirm,
  subject: card.word,
  confirmLabel: "Excluir",
});

export function CategoryAdmin({
  data,
  confirm,
  actionData,
  children,
}: {
  data: Pick<CategoryAdminData, "category" | "cards">;
  /** The card whose deletion is being confirmed without JavaScript (`?excluir=`). */
  confirm?: AdminCard | null;
  actionData?: AdminActionData;
  /** The add/edit panel. */
  children?: ReactNode;
}) {
  const { category, cards } = data;
  const listPath = categoryAdminPath(category.slug);
  const visible = cards.filter((card) => !card.hidden).length;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-8">
      <Link to={FLASHCARDS_PATH} className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3" })}>
        <ArrowLeftIcon size={18} />
        Voltar aos flashcards
      </Link>
      <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Cartões: {category.name}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {cards.length} {cards.length === 1 ? "cartão" : "cartões"} · {visible} nos jogos. A ordem é a desta lista.
          </p>
        </div>
        <Link to={`${newCardPath(category.slug)}#${ADMIN_PANEL_ID}`} preventScrollReset className={buttonVariants()}>
          Adicionar cartão
        </Link>
      </div>

      <div className="mt-6">
        <FormErrors errors={formErrorsOf(actionData?.result)} />
      </div>
      {children}
      {confirm ? (
        <ConfirmSection
          id={CONFIRM_DELETE_ID}
          action={listPath}
          fields={{ intent: "delete", card_id: confirm.id }}
          cancelTo={`${listPath}#${cardAnchor(confirm.id)}`}
          confirmation={deletion(confirm)}
        />
      ) : null}

      {cards.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600 dark:border-night-700 dark:text-slate-300">
          Nenhum cartão nesta categoria.
        </p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label={`Cartões de ${category.name}`}>
          {cards.map((card, index) => (
            <CardRow key={card.id} card={card} listPath={listPath} first={index === 0} last={index === cards.length - 1} />
          ))}
        </ol>
      )}
    </div>
  );
}

const smallButton = (variant: "secondary" | "dangerOutline" = "secondary") => buttonVariants({ variant, size: "sm" });

function CardRow({ card, listPath, first, last }: { card: AdminCard; listPath: string; first: boolean; last: boolean }) {
  const fields = { card_id: card.id };
  return (
    <li
      id={cardAnchor(card.id)}
      data-testid="flashcard-admin-card"
      className="flex scroll-mt-24 flex-col gap-3 rounded-xl border border-slate-200 bg-white p-3 sm:flex-row sm:items-center dark:border-night-700 dark:bg-night-900"
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <span className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-slate-100 dark:bg-night-800">
          {card.imageUrl ? <img src={card.imageUrl} alt="" loading="lazy" className="size-14 object-contain" /> : null}
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold" lang="en">
              {card.word}
            </span>
            {card.hidden ? (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950 dark:bg-amber-300/15 dark:text-amber-100">
                Oculto
              </span>
            ) : null}
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-200">{card.translation}</p>
          <p className="truncate text-xs text-slate-600 dark:text-slate-400">
            Grupo: {card.distractorGroup} · Som: {AUDIO_LABELS[card.audioSource]}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        <Link to={`${editCardPath(card.id)}#${ADMIN_PANEL_ID}`} preventScrollReset aria-label={`Editar ${card.word}`} className={smallButton()}>
          <PencilIcon size={14} />
          Editar
        </Link>
        <ListForm action={listPath} fields={{ ...fields, intent: "move", direction: "up" }} label={`Subir ${card.word}`} disabled={first}>
          Subir
        </ListForm>
        <ListForm action={listPath} fields={{ ...fields, intent: "move", direction: "down" }} label={`Descer ${card.word}`} disabled={last}>
          Descer
        </ListForm>
        <ListForm
          action={listPath}
          fields={{ ...fields, intent: card.hidden ? "show" : "hide" }}
          label={`${card.hidden ? "Mostrar" : "Ocultar"} ${card.word}`}
        >
          {card.hidden ? "Mostrar" : "Ocultar"}
        </ListForm>
        <ConfirmForm action={listPath} fields={{ ...fields, intent: "delete" }} confirmation={deletion(card)}>
          <button type="submit" aria-label={`Excluir ${card.word}`} className={smallButton("dangerOutline")}>
            <TrashIcon size={14} />
            Excluir
          </button>
        </ConfirmForm>
      </div>
    </li>
  );
}

/** One control of a card: a POST form with its hidden fields and one button. */
function ListForm({
  action,
  fields,
  label,
  disabled,
  children,
}: {
  action: string;
  fields: Record<string, string>;
  label: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action} preventScrollReset>
      <HiddenFields fields={fields} />
      <button type="submit" aria-label={label} disabled={disabled} className={smallButton()}>
        {children}
      </button>
    </Form>
  );
}
