// /admin/users/:userId — a user's profile, statistics, credits and ledger, the actions (block, credits,
// admin role, confirmation e-mail) and their audit log. A malformed id is a 404 before anything else.
import { useLoaderData } from "react-router";
import { handleUserAction, loadUserDetail } from "~/features/admin";
import { USER_MESSAGES } from "~/features/admin/schemas";
import { UserPage } from "~/features/admin/ui/UserPage";
import { publicOrigin, resendVerification } from "~/features/auth/accounts.server";
import type { RouteHandle } from "~/lib/access";
import { requireAdmin } from "~/server/auth.server";
import { notFound, requireUuidParam } from "~/server/request.server";
import type { Route } from "./+types/admin.users.$userId";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `${data.user.name} — Administração — Nika` : "Usuário — Nika" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const userId = requireUuidParam(params, "userId", USER_MESSAGES.notFound);
  const admin = await requireAdmin(request, context);
  const detail = await loadUserDetail(context.db, userId);
  if (!detail) throw notFound(USER_MESSAGES.notFound);
  return { ...detail, self: admin.id === userId };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const userId = requireUuidParam(params, "userId", USER_MESSAGES.notFound);
  const admin = await requireAdmin(request, context);
  const origin = publicOrigin(context, request);
  return handleUserAction(request, context, admin, userId, (email) => resendVerification(context, email, origin));
}

export default function AdminUser() {
  return <UserPage data={useLoaderData<typeof loader>()} />;
}
