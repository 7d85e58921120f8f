// /config/admin (tab Admin): the same toggles and analytics as /admin, posting to this tab.
import { Link, useLoaderData } from "react-router";
import { consoleAction, loadConsolePage } from "~/features/admin";
import { AdminConsole, configClientAction } from "~/features/admin/ui/AdminConsole";
import { NotebookPanel } from "~/features/notebook/admin/NotebookPanel";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/config.admin";

export const handle: RouteHandle = { access: "admin" };

export const loader = (args: Route.LoaderArgs) => loadConsolePage(args);

export const action = (args: Route.ActionArgs) => consoleAction(args);

export const clientAction = configClientAction;

export default function ConfigAdminTab() {
  return (
    <>
      <p className="mb-6 text-sm text-slate-700 dark:text-slate-300">
        Usuários, créditos e bloqueios ficam no{" "}
        <Link to="/admin/users" className="font-semibold text-indigo-700 underline dark:text-indigo-300">
          painel de administração
        </Link>
        .
      </p>
      <AdminConsole
        data={useLoaderData<typeof loader>()}
        action="/config/admin"
        panels={(analytics) => <NotebookPanel data={analytics.notebook} />}
      />
    </>
  );
}
