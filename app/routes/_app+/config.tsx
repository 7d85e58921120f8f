// /config: the settings frame (tabs Conta, Senha, App, and Admin for admins); each tab is a child route.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ConfigLayout } from "~/features/account/ConfigLayout";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Configurações — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { isAdmin: user.isAdmin };
}

export default function Config() {
  return <ConfigLayout isAdmin={useLoaderData<typeof loader>().isAdmin} />;
}
