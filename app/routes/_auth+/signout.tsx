import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import type { RouteHandle } from "~/lib/access";
import { destroySession } from "~/server/auth.server";

export const handle: RouteHandle = { access: "public" };

export const loader = () => redirect("/");

export async function action({ request, context }: ActionFunctionArgs) {
  return redirect("/signin", { headers: { "Set-Cookie": await destroySession(context, request) } });
}
