import type { RouteHandle } from "~/lib/access";
import { notFound } from "~/server/request.server";
import type { Route } from "./+types/$";

export const handle: RouteHandle = { access: "public" };

/** Any unknown path: log it and let the root error boundary render the 404 page. */
export async function loader({ request }: Route.LoaderArgs) {
  console.warn("[404]", new URL(request.url).pathname);
  throw notFound("Página não encontrada");
}

export async function action({ request }: Route.ActionArgs) {
  console.warn("[404]", new URL(request.url).pathname);
  throw notFound("Página não encontrada");
}

export default function NotFound() {
  return null;
}
