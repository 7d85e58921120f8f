import { Outlet, useLoaderData, useRouteError, useRouteLoaderData, isRouteErrorResponse } from "react-router";
import { ErrorScreen } from "~/components/ErrorScreen";
import { useCoursesNavigationSkeleton } from "~/features/courses/ui/Skeletons";
import { usePronunciationListSkeleton } from "~/features/pronunciation/ui/LevelGrid";
import { loadShell } from "~/features/shell";
import { MAIN_ID, SHELL_ROUTE_ID, type ShellData } from "~/features/shell/types";
import { AppShell } from "~/features/shell/ui/AppShell";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/_layout";

export const handle: RouteHandle = { access: "user" };

/** Pathless layout of the signed-in pages: auth guard + navigation chrome. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadShell(request, context);
}

export default function AppLayout() {
  const data = useLoaderData<typeof loader>();
  // While a client navigation into a course page or the pronunciation levels loads, show its skeleton
  // instead of the old page.
  const courseSkeleton = useCoursesNavigationSkeleton();
  const levelsSkeleton = usePronunciationListSkeleton();
  return <AppShell data={data}>{courseSkeleton ?? levelsSkeleton ?? <Outlet />}</AppShell>;
}

/** Errors of the pages below keep the chrome (feature disabled, failed loaders…). */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<ShellData>(SHELL_ROUTE_ID);
  // 4xx answers (refused input, not found, disabled features) are expected; only failures are logged.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  if (!data) {
    return (
      <main id={MAIN_ID} tabIndex={-1} className="outline-none">
        <ErrorScreen error={error} />
      </main>
    );
  }
  return (
    <AppShell data={data}>
      <ErrorScreen error={error} />
    </AppShell>
  );
}
