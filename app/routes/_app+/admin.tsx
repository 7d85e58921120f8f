// /admin: the admin console's frame (title and the sections Painel and Usuários); each section is a
// child route. Admins only: learners are sent to /, their actions answer 403 (requireAdmin).
import { Outlet } from "react-router";
import { AdminFrame } from "~/features/admin/ui/AdminFrame";
import type { RouteHandle } from "~/lib/access";
import { requireAdmin } from "~/server/auth.server";
import type { Route } from "./+types/admin";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Administração — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
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
