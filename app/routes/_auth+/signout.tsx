import { redirect } from "react-router";
import type { RouteHandle } from "~/lib/access";
import { destroySession } from "~/server/auth.server";
import type { Route } from "./+types/signout";

export const handle: RouteHandle = { access: "public" };

export const loader = () => redirect("/");

export async function action({ request, context }: Route.ActionArgs) {
  return redirect("/signin", { headers: { "Set-Cookie": await destroySession(context, request) } });
}
