// /config/senha (tab Senha): Troca de senha. Filled in by issue 11.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";

export const handle: RouteHandle = { access: "user" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export default function ConfigTab() {
  return <p className="text-slate-700 dark:text-slate-300">Troca de senha: em breve.</p>;
}
