// /admin/users?q=&page= — search users by name or e-mail (a GET form: works without JavaScript).
import { useLoaderData } from "react-router";
import { searchUsers } from "~/features/admin";
import { userSearchSchema } from "~/features/admin/schemas";
import { UserSearch } from "~/features/admin/ui/UserSearch";
import type { RouteHandle } from "~/lib/access";
import { requireAdmin } from "~/server/auth.server";
import type { Route } from "./+types/admin.users._index";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Usuários — Administração — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const { q, page } = userSearchSchema.parse({ q: url.searchParams.get("q") ?? "", page: url.searchParams.get("page") ?? "1" });
  return { q, ...(await searchUsers(context.db, q, page)) };
}

export default function AdminUsers() {
  return <UserSearch data={useLoaderData<typeof loader>()} />;
}
