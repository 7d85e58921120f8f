// /flashcard-v2: the category picker (spec §2). Each tile is its own POST form (a category's game, or the
// review game), so it works without JavaScript; with it, "Buscando cartões..." shows while the game is
// being made and a refusal for credits opens the dialog. Admins get an edit link per category.
import { Suspense, useEffect, useState, type ComponentType } from "react";
import { Form, Link } from "react-router";
import { cn } from "~/components/cn";
import { ArrowLeftIcon, CardsIcon, PencilIcon, RefreshIcon } from "~/components/icons";
import { Refusal } from "~/components/Refusal";
import type { DownloadPanelProps } from "~/features/offline";
import { whenSettled } from "~/lib/when-settled";
import { categoryAdminPath, FLASHCARDS_PATH } from "../admin/paths";
import type { CategoryTile } from "../game.server";
import type { FlashcardActionData, PickerPageData } from "../page.server";
import { cardsLabel } from "../texts";
import { StartingStatus, useStarting } from "./Starting";

const tileClass =
  "flex h-full w-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white text-left shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:translate-y-0 disabled:cursor-not-allowed disabled:opacity-70 disabled:shadow-none motion-reduce:transition-none dark:border-night-700 dark:bg-night-900";

/**
 * `Downloads`: offline practice's "Baixar para praticar offline", which the route passes in (lazily loaded, so the
 * picker's script does not carry it); shown once the page has settled, so its first moments (hydration, the first
 * taps on a tile) do not either.
 */
export function Picker({
  data,
  actionData,
  Downloads,
}: {
  data: PickerPageData;
  actionData: FlashcardActionData | undefined;
  Downloads?: ComponentType<DownloadPanelProps>;
}) {
  const { starting, key } = useStarting();
  const { categories, reviewCount, offlineReviewCount } = data.picker;
  const [offlineShown, setOfflineShown] = useState(false);
  useEffect(() => whenSettled(() => setOfflineShown(true)), []);
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <Link
        to="/labs"
        className="inline-flex items-center gap-1.5 rounded-lg py-1 pr-2 text-sm font-semibold text-slate-700 hover:text-slate-950 dark:text-slate-200 dark:hover:text-white"
      >
        <ArrowLeftIcon size={18} />
        Voltar ao Labs
      </Link>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">Flashcards</h1>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        Escolha uma categoria: veja a imagem, ouça as palavras e escolha a certa. Cada jogo tem até 10 cartões e custa 1 crédito.
      </p>

      <Refusal data={actionData} backTo={FLASHCARDS_PATH} className="mt-4" />
      <StartingStatus starting={starting} />

      <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4" aria-label="Categorias">
        <li>
          <ReviewTile count={reviewCount} busy={starting} pending={key === "review"} />
        </li>
        {categories.map((category) => (
          <li key={category.slug} className="relative">
            <CategoryTileForm category={category} busy={starting} pending={key === category.slug} />
            {data.isAdmin ? (
              <Link
                to={categoryAdminPath(category.slug)}
                aria-label={`Editar ${category.name}`}
                className="absolute top-2 right-2 flex items-center gap-1 rounded-full bg-white/95 px-2.5 py-1 text-xs font-semibold text-slate-800 shadow ring-1 ring-slate-200 hover:bg-indigo-50 dark:bg-night-800 dark:text-slate-100 dark:ring-night-700"
              >
                <PencilIcon size={12} />
                Editar
              </Link>
            ) : null}
          </li>
        ))}
      </ul>

      {/* Offline practice needs the page's script (storage, downloads): absent without it. */}
      {offlineShown && Downloads ? (
        <Suspense fallback={null}>
          <Downloads userId={data.userId} categories={categories} reviewCount={offlineReviewCount} />
        </Suspense>
      ) : null}
    </div>
  );
}

function CategoryTileForm({ category, busy, pending }: { category: CategoryTile; busy: boolean; pending: boolean }) {
  return (
    <Form method="post" className="h-full">
      <input type="hidden" name="intent" value="start" />
      <input type="hidden" name="category" value={category.slug} />
      <button
        type="submit"
        disabled={busy || !category.playable}
        aria-busy={pending || undefined}
        className={tileClass}
        data-testid="category-tile"
      >
        <span className="flex aspect-[4/3] w-full items-center justify-center bg-gradient-to-br from-teal-50 to-cyan-100 dark:from-teal-400/10 dark:to-cyan-400/15">
          {category.tileUrl ? (
            <img src={category.tileUrl} alt="" width={96} height={96} className={cn("size-20 sm:size-24", pending && "animate-pulse")} />
          ) : (
            <CardsIcon size={48} className="text-teal-700 dark:text-teal-200" />
          )}
        </span>
        <span className="flex flex-1 flex-col p-3">
          <span className="font-semibold leading-snug">{category.name}</span>
          <span className="mt-0.5 text-sm text-slate-700 dark:text-slate-300">
            {category.playable ? cardsLabel(category.cardCount) : `${cardsLabel(category.cardCount)} · poucos para um jogo`}
          </span>
        </span>
      </button>
    </Form>
  );
}

function ReviewTile({ count, busy, pending }: { count: number; busy: boolean; pending: boolean }) {
  const empty = count === 0;
  return (
    <Form method="post" className="h-full">
      <input type="hidden" name="intent" value="review" />
      <button
        type="submit"
        disabled={busy || empty}
        aria-busy={pending || undefined}
        aria-describedby={empty ? "revisao-vazia" : undefined}
        className={tileClass}
        data-testid="review-tile"
      >
        <span className="flex aspect-[4/3] w-full items-center justify-center bg-gradient-to-br from-amber-50 to-orange-100 text-orange-700 dark:from-amber-400/10 dark:to-orange-400/15 dark:text-orange-200">
          <RefreshIcon size={56} className={cn(pending && "animate-spin motion-reduce:animate-none")} />
        </span>
        <span className="flex flex-1 flex-col p-3">
          <span className="font-semibold leading-snug">Revisão</span>
          <span className="mt-0.5 text-sm text-slate-700 dark:text-slate-300" data-testid="review-count">
            {empty ? "Nada para revisar" : `${cardsLabel(count)} para revisar`}
          </span>
          {empty ? (
            <span id="revisao-vazia" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              As palavras que você errar voltam aqui.
            </span>
          ) : null}
        </span>
      </button>
    </Form>
  );
}
