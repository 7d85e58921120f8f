// /flashcard-v2/admin/:category/new — "Adicionar cartão", nested in the category's list (dialog with
// JS, page section without). A new card needs a picture. Admins only; flashcards enabled.
import { useActionData, useLoaderData } from "react-router";
import { AdminPanel } from "~/components/admin/AdminPanel";
import { CardForm } from "~/features/flashcards/admin/CardForm";
import { createCard, handleCardSave, loadNewCardForm, requireFlashcardsAdmin } from "~/features/flashcards/admin/cards.server";
import { categoryAdminPath, newCardPath } from "~/features/flashcards/admin/paths";
import { MESSAGES } from "~/features/flashcards/admin/schemas";
import type { RouteHandle } from "~/lib/access";
import { notFound } from "~/server/request.server";
import type { Route } from "./+types/flashcard-v2_.admin.$category.new";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Adicionar cartão — Nika" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireFlashcardsAdmin(request, context);
  const form = await loadNewCardForm(context.db, params.category!);
  if (!form) throw notFound("Categoria não encontrada");
  return form;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  await requireFlashcardsAdmin(request, context);
  const slug = params.category!;
  return handleCardSave(request, context, {
    save: (value, urls) => createCard(context.db, slug, value, urls),
    failure: "Falha ao adicionar cartão",
    notFound: "Categoria não encontrada",
    saved: "Ele já entra nos próximos jogos.",
    requiredFiles: { image_file: MESSAGES.imageRequired },
  });
}

export default function NewCard() {
  const { category, groups } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const closeTo = categoryAdminPath(category.slug);
  return (
    <AdminPanel title="Adicionar cartão" description={category.name} closeTo={closeTo}>
      <CardForm groups={groups} actionData={actionData} action={newCardPath(category.slug)} closeTo={closeTo} />
    </AdminPanel>
  );
}
