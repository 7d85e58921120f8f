// Screens for thrown errors, shared by the root boundary (outside the chrome) and the protected
// layout's boundary (inside it): 404, feature disabled, service unavailable (503: the database cannot
// be reached), and anything else.
import type { ReactNode } from "react";
import { Link, isRouteErrorResponse, useLocation } from "react-router";
import { isFeatureDisabled } from "~/lib/flags";
import { buttonVariants } from "./button";
import { AlertIcon, ArrowLeftIcon, ClockIcon, RefreshIcon } from "./icons";

export function isNotFound(error: unknown) {
  return isRouteErrorResponse(error) && error.status === 404;
}

export function isFeatureDisabledError(error: unknown) {
  return isRouteErrorResponse(error) && error.status === 403 && isFeatureDisabled(error.data);
}

/** A 503 answer (server.ts/entry.server.tsx while the database cannot be reached; Retry-After is set). */
export function isServiceUnavailableError(error: unknown) {
  return isRouteErrorResponse(error) && error.status === 503;
}

export function ErrorScreen({ error }: { error: unknown }) {
  if (isNotFound(error)) return <NotFoundScreen />;
  if (isFeatureDisabledError(error)) return <FeatureDisabledScreen />;
  if (isServiceUnavailableError(error)) return <ServiceUnavailableScreen error={error} />;
  return <GenericErrorScreen error={error} />;
}

const primaryButton = buttonVariants({ size: "lg", className: "mt-8" });

function Frame({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex min-h-[70dvh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
      <div className="mb-6 flex size-16 items-center justify-center rounded-2xl bg-indigo-100 text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-200">
        {icon}
      </div>
      <h1 className="text-2xl font-bold tracking-tight text-balance sm:text-3xl">{title}</h1>
      {children}
    </div>
  );
}

function HomeLink() {
  return (
    <Link to="/" className={primaryButton}>
      <ArrowLeftIcon size={18} />
      Voltar ao início
    </Link>
  );
}

export function NotFoundScreen() {
  const { pathname } = useLocation();
  return (
    <Frame icon={<span className="text-2xl font-black">404</span>} title="Página não encontrada">
      <p className="mt-3 text-slate-600 dark:text-slate-300">Não encontramos nada neste endereço:</p>
      <p className="mt-2 max-w-full">
        <code className="inline-block max-w-full rounded-lg bg-slate-200 px-2 py-1 text-sm break-all text-slate-800 dark:bg-night-800 dark:text-slate-100">
          {pathname}
        </code>
      </p>
      <HomeLink />
    </Frame>
  );
}

export function FeatureDisabledScreen() {
  return (
    <Frame icon={<ClockIcon size={30} />} title="Recurso Temporariamente Indisponível">
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        Este recurso está desativado no momento. Tente novamente mais tarde — enquanto isso, continue praticando com as outras atividades.
      </p>
      <HomeLink />
    </Frame>
  );
}

const textField = (data: unknown, key: string) =>
  data && typeof data === "object" && key in data && typeof (data as Record<string, unknown>)[key] === "string"
    ? ((data as Record<string, unknown>)[key] as string)
    : undefined;

/** Title and text come with the 503 (app/server/db.server.ts DATABASE_UNAVAILABLE); a bare 503 reads the same. */
export function ServiceUnavailableScreen({ error }: { error: unknown }) {
  const { pathname, search } = useLocation();
  const data = isRouteErrorResponse(error) ? (error.data as unknown) : undefined;
  return (
    <Frame icon={<ClockIcon size={30} />} title={textField(data, "title") ?? "Serviço temporariamente indisponível"}>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        {textField(data, "error") ?? "Não conseguimos acessar os dados agora. Tente novamente em alguns segundos."}
      </p>
      <a href={pathname + search} className={primaryButton}>
        <RefreshIcon size={18} />
        Tentar novamente
      </a>
    </Frame>
  );
}

export function errorDetails(error: unknown): { message: string; stack?: string } {
  if (isRouteErrorResponse(error)) {
    const data = error.data as unknown;
    // A refusal's `{ error, code }` (request.server.ts), or a plain-text answer.
    const detail = typeof data === "string" ? data : (textField(data, "error") ?? "");
    return { message: [`${error.status} ${error.statusText}`.trim(), detail].filter(Boolean).join(" — ") };
  }
  if (error instanceof Error) return { message: error.message || error.name, stack: error.stack };
  return { message: typeof error === "string" ? error : "Erro desconhecido." };
}

export function GenericErrorScreen({ error }: { error: unknown }) {
  const { pathname, search } = useLocation();
  const { message, stack } = errorDetails(error);
  return (
    <Frame icon={<AlertIcon size={30} />} title="Algo deu errado">
      <p className="mt-3 text-slate-600 dark:text-slate-300">Ocorreu um erro inesperado. Recarregue a página para tentar de novo.</p>
      <p className="mt-4 w-full rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-left text-sm break-words text-rose-900 dark:border-rose-400/30 dark:bg-rose-500/10 dark:text-rose-100">
        {message}
      </p>
      {import.meta.env.DEV && stack ? (
        <pre className="mt-3 max-h-64 w-full overflow-auto rounded-xl bg-slate-900 p-3 text-left text-xs text-slate-100">{stack}</pre>
      ) : null}
      {/* A real link to this page: reloads without JavaScript; with JS a full reload as well. */}
      <a
        href={pathname + search}
        onClick={(event) => {
          event.preventDefault();
          window.location.reload();
        }}
        className={primaryButton}
      >
        <RefreshIcon size={18} />
        Recarregar página
      </a>
    </Frame>
  );
}
