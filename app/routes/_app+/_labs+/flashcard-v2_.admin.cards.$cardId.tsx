// /flashcard-v2/admin/cards/:cardId — "Editar cartão": the panel over its category's list (dialog with
// JS, page section without). Admins only; flashcards enabled.
import { useActionData, useLoaderData } from "react-router";
import { AdminPanel } from "~/components/admin/AdminPanel";
import { CardForm } from "~/features/flashcards/admin/CardForm";
import {
  findCardForEdit,
  handleCardSave,
  loadCategoryAdmin,
  requireFlashcardsAdmin,
  updateCard,
} from "~/features/flashcards/admin/cards.server";
import { CategoryAdmin } from "~/features/flashcards/admin/CategoryAdmin";
import { categoryAdminPath, editCardPath } from "~/features/flashcards/admin/paths";
import type { RouteHandle } from "~/lib/access";
import { notFound, requireUuidParam } from "~/server/request.server";
import type { Route } from "./+types/flashcard-v2_.admin.cards.$cardId";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `Editar cartão “${data.card.word}” — Nika` : "Editar cartão — Nika" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireFlashcardsAdmin(request, context);
  const card = await findCardForEdit(context.db, params.cardId!);
  const list = card ? await loadCategoryAdmin(context.db, card.categorySlug) : null;
  if (!card || !list) throw notFound("Cartão não encontrado");
  return { card, list };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const cardId = requireUuidParam(params, "cardId", "Cartão não encontrado");
  await requireFlashcardsAdmin(request, context);
  return handleCardSave(request, context, {
    save: (value, urls) => updateCard(context.db, cardId, value, urls),
    failure: "Falha ao salvar cartão",
    notFound: "Cartão não encontrado",
    saved: "As mudanças já valem para os próximos jogos.",
  });
}

export default function EditCard() {
  const { card, list } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const closeTo = categoryAdminPath(list.category.slug);
  return (
    <CategoryAdmin data={list}>
      <AdminPanel title="Editar cartão" description={`${list.category.name} · ${card.word}`} closeTo={closeTo}>
        <CardForm key={card.id} card={card} groups={list.groups} actionData={actionData} action={editCardPath(card.id)} closeTo={closeTo} />
      </AdminPanel>
    </CategoryAdmin>
  );
}
