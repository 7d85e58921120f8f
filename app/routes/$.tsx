import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { RouteHandle } from "~/lib/access";
import { notFound } from "~/server/request.server";

export const handle: RouteHandle = { access: "public" };

/** Any unknown path: log it and let the root error boundary render the 404 page. */
export async function loader({ request }: LoaderFunctionArgs) {
  console.warn("[404]", new URL(request.url).pathname);
  throw notFound("Página não encontrada");
}

export async function action({ request }: ActionFunctionArgs) {
  console.warn("[404]", new URL(request.url).pathname);
  throw notFound("Página não encontrada");
}

export default function NotFound() {
  return null;
}
