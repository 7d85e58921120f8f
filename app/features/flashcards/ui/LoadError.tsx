// Spec §8: the flashcards' error screen ('Não foi possível carregar', 'Tentar novamente') and its toast.
import { useEffect } from "react";
import { isRouteErrorResponse, Link, useLocation, useRouteError } from "react-router";
import { buttonVariants } from "~/components/button";
import { ErrorScreen } from "~/components/ErrorScreen";
import { AlertIcon, ArrowLeftIcon, RefreshIcon } from "~/components/icons";
import { toast } from "~/components/Toaster";
import { FLASHCARDS_PATH } from "../admin/paths";
import { LOAD_ERROR } from "../texts";

/** Shows the 'Erro' toast once (with JavaScript; nothing happens without it). */
export function useLoadErrorToast(failed: boolean) {
  useEffect(() => {
    if (failed) toast({ type: "error", title: LOAD_ERROR.toastTitle, description: LOAD_ERROR.toastDescription });
  }, [failed]);
}

/**
 * The error screen. `onRetry` (the game's preloading) makes 'Tentar novamente' a button; without it
 * the button is a link that loads `retryHref` again (works without JavaScript).
 */
export function LoadError({ onRetry, retryHref }: { onRetry?: () => void; retryHref?: string }) {
  const retryClass = buttonVariants({ size: "lg" });
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-12 text-center">
      <span className="mb-5 flex size-14 items-center justify-center rounded-2xl bg-rose-100 text-rose-700 dark:bg-rose-400/15 dark:text-rose-200">
        <AlertIcon size={28} />
      </span>
      <h2 className="text-xl font-bold tracking-tight">{LOAD_ERROR.title}</h2>
      <p className="mt-2 text-slate-700 dark:text-slate-200">{LOAD_ERROR.description}</p>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        {onRetry ? (
          <button type="button" onClick={onRetry} className={retryClass}>
            <RefreshIcon size={18} />
            {LOAD_ERROR.retry}
          </button>
        ) : (
          <a href={retryHref ?? FLASHCARDS_PATH} className={retryClass}>
            <RefreshIcon size={18} />
            {LOAD_ERROR.retry}
          </a>
        )}
        <Link to={FLASHCARDS_PATH} className={buttonVariants({ variant: "secondary", size: "lg" })}>
          <ArrowLeftIcon size={18} />
          Voltar às categorias
        </Link>
      </div>
    </div>
  );
}

/**
 * Error boundary of the flashcard routes: a 404 or a disabled feature as everywhere; anything else (a
 * failed load, a start or an answer that never reached the server) is the error screen and its toast.
 */
export function FlashcardsErrorBoundary() {
  const error = useRouteError();
  const { pathname, search } = useLocation();
  const expected = isRouteErrorResponse(error) && error.status < 500;
  useLoadErrorToast(!expected);
  if (expected) return <ErrorScreen error={error} />;
  return <LoadError retryHref={pathname + search} />;
}
