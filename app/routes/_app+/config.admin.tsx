// /config/admin (tab Admin): Funcionalidades e análises. Filled in by issue 11.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { RouteHandle } from "~/lib/access";
import { requireAdmin } from "~/server/auth.server";

export const handle: RouteHandle = { access: "admin" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function ConfigTab() {
  return <p className="text-slate-700 dark:text-slate-300">Funcionalidades e análises: em breve.</p>;
}
