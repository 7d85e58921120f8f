import { redirect } from "react-router";
import { closeUserConnections } from "~/features/auth";
import type { RouteHandle } from "~/lib/access";
import { destroySession } from "~/server/auth.server";
import type { Route } from "./+types/signout";

export const handle: RouteHandle = { access: "public" };

export const loader = () => redirect("/");

export async function action({ request, context }: Route.ActionArgs) {
  const { setCookie, userId } = await destroySession(context, request);
  // Signing out ends everything the session had open: a live conversation stops being charged now.
  if (userId) await closeUserConnections(context, userId);
  return redirect("/signin", { headers: { "Set-Cookie": setCookie } });
}
