// /admin — the toggles of app_config and the analytics (the same as /config/admin).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminConsole, configClientAction } from "~/features/admin/AdminConsole";
import { handleConfigUpdate, loadConsole } from "~/features/admin/console.server";
import type { RouteHandle } from "~/lib/access";
import { requireAdmin } from "~/server/auth.server";

export const handle: RouteHandle = { access: "admin" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return loadConsole(context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAdmin(request, context);
  return handleConfigUpdate(request, context);
}

export const clientAction = configClientAction;

export default function AdminIndex() {
  return <AdminConsole data={useLoaderData<typeof loader>()} action="/admin?index" />;
}
