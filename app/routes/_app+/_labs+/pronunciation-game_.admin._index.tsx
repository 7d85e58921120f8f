// /pronunciation-game/admin — the 100 pronunciation levels for admins: sentence,
// translation and reference recording of each, grouped by band, with a link to each level's form.
// `pronunciation-game_` keeps it out of the game's layout. Admins only; the game enabled.
import { useLoaderData } from "react-router";
import { loadLevelsAdmin, requirePronunciationAdmin } from "~/features/pronunciation/admin/levels-admin.server";
import { LevelsAdmin } from "~/features/pronunciation/admin/LevelsAdmin";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/pronunciation-game_.admin._index";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = () => [{ title: "Níveis de pronúncia — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePronunciationAdmin(request, context);
  return { list: await loadLevelsAdmin(context.db) };
}

export default function LevelsAdminPage() {
  const { list } = useLoaderData<typeof loader>();
  return <LevelsAdmin data={list} />;
}
