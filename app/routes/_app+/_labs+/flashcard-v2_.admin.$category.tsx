// /flashcard-v2/admin/:category — a category's cards for admins (decision 0012): the list with move,
// hide/show and delete controls (POST forms, confirmed deletion), and the add panel nested in it
// (`…/new`). `flashcard-v2_` keeps it out of the game page's layout. Admins only; flashcards enabled.
import { Outlet, useActionData, useLoaderData } from "react-router";
import { handleCardAction, loadCategoryAdmin, requireFlashcardsAdmin } from "~/features/flashcards/admin/cards.server";
import { CategoryAdmin } from "~/features/flashcards/admin/CategoryAdmin";
import { DELETE_PARAM } from "~/features/flashcards/admin/paths";
import type { RouteHandle } from "~/lib/access";
import { notFound } from "~/server/request.server";
import type { Route } from "./+types/flashcard-v2_.admin.$category";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `Cartões: ${data.list.category.name} — Nika` : "Cartões — Nika" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireFlashcardsAdmin(request, context);
  const list = await loadCategoryAdmin(context.db, params.category!);
  if (!list) throw notFound("Categoria não encontrada");
  // Without JavaScript, a deletion is confirmed on this page first (?excluir={cardId}).
  const deleting = new URL(request.url).searchParams.get(DELETE_PARAM);
  const confirm = deleting ? (list.cards.find((card) => card.id === deleting) ?? null) : null;
  return { list, confirm };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  await requireFlashcardsAdmin(request, context);
  return handleCardAction(request, context, params.category!);
}

export default function CategoryCards() {
  const { list, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <CategoryAdmin data={list} confirm={confirm} actionData={actionData}>
      <Outlet />
    </CategoryAdmin>
  );
}
