import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { ComingSoon } from "~/features/shell/ComingSoon";
import type { RouteHandle } from "~/lib/access";
import { requireAdmin } from "~/server/auth.server";

export const handle: RouteHandle = { access: "admin" };

export const meta: MetaFunction = () => [{ title: "Administração — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function Admin() {
  return <ComingSoon feature="Administração" description="O painel com as configurações do app e as análises de uso está a caminho." />;
}
