// /pronunciation-game/admin/:level — "Editar nível": a level's sentence, translation and reference
// recording, in the panel over the levels' list (a dialog with JS, a page section without). Anything
// but 1–100 is a 404 before any other work. Admins only; the game enabled.
import { useActionData, useLoaderData } from "react-router";
import { AdminPanel } from "~/components/admin/AdminPanel";
import { LevelForm } from "~/features/pronunciation/admin/LevelForm";
import {
  findLevelForEdit,
  handleLevelSave,
  loadLevelsAdmin,
  requirePronunciationAdmin,
} from "~/features/pronunciation/admin/levels-admin.server";
import { LevelsAdmin } from "~/features/pronunciation/admin/LevelsAdmin";
import { editLevelPath, levelAnchor, LEVELS_ADMIN_PATH, parseLevel } from "~/features/pronunciation/admin/paths";
import type { RouteHandle } from "~/lib/access";
import { notFound } from "~/server/request.server";
import type { Route } from "./+types/pronunciation-game_.admin.$level";

export const handle: RouteHandle = { access: "admin" };

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `Editar nível ${data.level.level} — Nika` : "Editar nível — Nika" }];

const levelNotFound = () => notFound("Nível não encontrado");

/** The level of the URL (1–100), or a 404 before anything else. */
function levelOf(params: Route.LoaderArgs["params"]) {
  const level = parseLevel(params.level);
  if (level === null) throw levelNotFound();
  return level;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const number = levelOf(params);
  await requirePronunciationAdmin(request, context);
  const level = await findLevelForEdit(context.db, number);
  if (!level) throw levelNotFound();
  return { level, list: await loadLevelsAdmin(context.db) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const level = levelOf(params);
  await requirePronunciationAdmin(request, context);
  return handleLevelSave(request, context, level);
}

export default function EditLevel() {
  const { level, list } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const closeTo = `${LEVELS_ADMIN_PATH}#${levelAnchor(level.level)}`;
  return (
    <LevelsAdmin data={list}>
      <AdminPanel title="Editar nível" description={`Nível ${level.level} · Banda ${level.band}: ${level.bandInfo.title}`} closeTo={closeTo}>
        <LevelForm key={level.level} level={level} actionData={actionData} action={editLevelPath(level.level)} closeTo={closeTo} />
      </AdminPanel>
    </LevelsAdmin>
  );
}
