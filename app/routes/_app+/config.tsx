// /config: the settings frame (tabs Conta, Senha, App, and Admin for admins); each tab is a child route.
import { useLoaderData } from "react-router";
import { ConfigLayout } from "~/features/account/ui/ConfigLayout";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import type { Route } from "./+types/config";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Configurações — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { isAdmin: user.isAdmin };
}

export default function Config() {
  return <ConfigLayout isAdmin={useLoaderData<typeof loader>().isAdmin} />;
}
