// /admin — the toggles of app_config and the analytics (the same as /config/admin).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminConsole, configClientAction } from "~/features/admin/AdminConsole";
import { consoleAction, loadConsolePage } from "~/features/admin/console.server";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "admin" };

export const loader = (args: LoaderFunctionArgs) => loadConsolePage(args);

export const action = (args: ActionFunctionArgs) => consoleAction(args);

export const clientAction = configClientAction;

export default function AdminIndex() {
  return <AdminConsole data={useLoaderData<typeof loader>()} action="/admin?index" />;
}
