import { useEffect, type ReactNode } from "react";
import {
  data,
  redirect,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
  isRouteErrorResponse,
} from "react-router";
import { ErrorScreen, isFeatureDisabledError, isNotFound, isServiceUnavailableError } from "~/components/ErrorScreen";
import { Toaster } from "~/components/Toaster";
import { emailChangeLinkTarget, useConfirmationHashToast } from "~/features/account/email-change-links";
import { InstallPrompt, OfflineBanner, UpdateToast } from "~/features/pwa";
import { installErrorReporter } from "~/features/shell/report-error";
import { THEME_COLORS, THEME_INIT_SCRIPT } from "~/features/shell/theme";
import { MAIN_ID } from "~/features/shell/types";
import { useNonce } from "~/lib/nonce";
import { getSessionUser } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { takeToast } from "~/server/toast.server";
import type { Route } from "./+types/root";
import stylesheet from "./tailwind.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: "/icons/icon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: Route.MetaFunction = ({ error }) => [
  {
    title: !error
      ? "Nika — Inglês com IA"
      : isNotFound(error)
        ? "Página não encontrada — Nika"
        : isFeatureDisabledError(error)
          ? "Recurso Temporariamente Indisponível — Nika"
          : isServiceUnavailableError(error)
            ? "Serviço temporariamente indisponível — Nika"
            : "Algo deu errado — Nika",
  },
  { name: "description", content: "Aprenda inglês conversando com a Nika, sua professora com inteligência artificial." },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Spec §2 background handler: an e-mail change link that landed on any page goes to /confirm-email.
  const emailChangeTarget = emailChangeLinkTarget(new URL(request.url));
  if (emailChangeTarget) throw redirect(emailChangeTarget);
  const [{ toast, headers }, flags, user] = await Promise.all([
    takeToast(context.cloudflare.env, request),
    getFlags(context),
    getSessionUser(request, context),
  ]);
  return data(
    {
      // A fresh id per flash toast: the client shows each one once, also after client navigations.
      toast: toast ? { ...toast, id: crypto.randomUUID() } : null,
      appName: flags.app_name,
      signedIn: user !== null,
    },
    { headers },
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  // Inline scripts run only with this request's CSP nonce (server.ts sends the policy).
  const nonce = useNonce();

  useEffect(() => installErrorReporter(), []);
  useConfirmationHashToast();
  // Marks the page as interactive (end-to-end tests wait for it before using JS-only controls).
  useEffect(() => {
    document.documentElement.setAttribute("data-hydrated", "");
  }, []);

  return (
    // The head script may swap `dark` for light before first paint; React keeps that class.
    <html lang="pt-BR" className="dark" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cut" />
        <meta name="theme-color" content={THEME_COLORS.dark} />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body>
        <OfflineBanner />
        <a
          href={`#${MAIN_ID}`}
          className="fixed top-3 left-3 z-[100] -translate-y-[200%] rounded-lg bg-indigo-600 px-4 py-2 font-semibold text-white shadow-lg focus:translate-y-0"
        >
          Pular para o conteúdo
        </a>
        {children}
        <Toaster initial={rootData?.toast ?? null} />
        <InstallPrompt />
        <UpdateToast />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  // 4xx answers (refused input, not found, disabled features) are expected, and so is a 503 while the
  // database cannot be reached (logged once by entry.server.tsx's handleError); only failures are logged.
  if (!isRouteErrorResponse(error) || (error.status >= 500 && error.status !== 503)) console.error(error);
  return (
    <main id={MAIN_ID} tabIndex={-1} className="outline-none">
      <ErrorScreen error={error} />
    </main>
  );
}
