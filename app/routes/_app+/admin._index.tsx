// /admin — the toggles of app_config and the analytics (the same as /config/admin).
import { useLoaderData } from "react-router";
import { consoleAction, loadConsolePage } from "~/features/admin";
import { AdminConsole, configClientAction } from "~/features/admin/ui/AdminConsole";
import { NotebookPanel } from "~/features/notebook/admin/NotebookPanel";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/admin._index";

export const handle: RouteHandle = { access: "admin" };

export const loader = (args: Route.LoaderArgs) => loadConsolePage(args);

export const action = (args: Route.ActionArgs) => consoleAction(args);

export const clientAction = configClientAction;

export default function AdminIndex() {
  return (
    <AdminConsole
      data={useLoaderData<typeof loader>()}
      action="/admin?index"
      panels={(analytics) => <NotebookPanel data={analytics.notebook} />}
    />
  );
}
