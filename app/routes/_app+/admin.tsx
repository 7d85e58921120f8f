// /admin: the admin console's frame (title and the sections Painel and Usuários); each section is a
// child route. Admins only: learners are sent to /, their actions answer 403 (requireAdmin).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";
import { AdminFrame } from "~/features/admin/AdminFrame";
import type { RouteHandle } from "~/lib/access";
import { requireAdmin } from "~/server/auth.server";

export const handle: RouteHandle = { access: "admin" };

export const meta: MetaFunction = () => [{ title: "Administração — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function Admin() {
  return (
    <AdminFrame>
      <Outlet />
    </AdminFrame>
  );
}
