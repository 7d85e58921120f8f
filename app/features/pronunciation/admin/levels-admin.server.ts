// The pronunciation admin's reads and writes: the 100 levels for the list, one
// level for its form, and saving a level's sentence, translation and reference recording. An upload (R2,
// `pronunciation/<uuid>.<ext>`) wins over the shipped recording; replacing it or going back to the
// shipped one deletes the old object (saveWithUploads). The learners' pages read the row, so a save is
// what the next visit shows; nothing else is regenerated (the shipped recording keeps saying the
// sentence it was made for — the form says so).
import { asc, eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { handleAdminSave, type SavedUploads } from "~/server/admin-forms.server";
import { requireAdmin } from "~/server/auth.server";
import { rowsOf, type DbOrTx } from "~/server/db.server";
import { requireFeature } from "~/server/flags.server";
import { keyFromPublicUrl, publicPath } from "~/server/storage.server";
import { bandOf, hasShippedLevel, levelAudioUrl } from "../content.server";
import { pronunciationLevels } from "../tables";
import { levelAnchor, LEVELS_ADMIN_PATH } from "./paths";
import { LEVEL_FILES, levelSchema, type LevelInput } from "./schemas";

/** Every admin loader and action: admins only (GET → redirect, POST → 403), the game enabled. */
export async function requirePronunciationAdmin(request: Request, context: AppLoadContext) {
  const user = await requireAdmin(request, context);
  await requireFeature(context, "feature_pronunciation");
  return user;
}

/** Where a level's reference recording comes from: an admin's upload or the shipped file. */
export type LevelAudioSource = "upload" | "shipped";

const levelColumns = {
  level: pronunciationLevels.level,
  band: pronunciationLevels.band,
  sentence: pronunciationLevels.sentence,
  translation: pronunciationLevels.translation,
  audioAsset: pronunciationLevels.audioAsset,
  audioKey: pronunciationLevels.audioKey,
};
type LevelRow = Pick<typeof pronunciationLevels.$inferSelect, "level" | "band" | "sentence" | "translation" | "audioAsset" | "audioKey">;

function toAdminLevel(row: LevelRow) {
  const audioSource: LevelAudioSource = row.audioKey ? "upload" : "shipped";
  return {
    level: row.level,
    band: row.band,
    sentence: row.sentence,
    translation: row.translation,
    audioUrl: levelAudioUrl(row),
    audioSource,
  };
}
export type AdminLevel = ReturnType<typeof toAdminLevel>;

/** A band as the admin pages name it. */
function bandInfo(band: number) {
  const { title, sound } = bandOf(band);
  return { band, title, sound };
}
export type AdminBand = ReturnType<typeof bandInfo>;

/** The levels in order, grouped by their band (the sound they train). */
export async function loadLevelsAdmin(db: DbOrTx) {
  const rows = await db.select(levelColumns).from(pronunciationLevels).orderBy(asc(pronunciationLevels.level));
  const bands: (AdminBand & { levels: AdminLevel[] })[] = [];
  for (const row of rows) {
    let group = bands.at(-1);
    if (!group || group.band !== row.band) bands.push((group = { ...bandInfo(row.band), levels: [] }));
    group.levels.push(toAdminLevel(row));
  }
  return { bands, count: rows.length };
}
export type LevelsAdmin = Awaited<ReturnType<typeof loadLevelsAdmin>>;

/** One level for its form, with what can be restored; null when the row is missing. */
export async function findLevelForEdit(db: DbOrTx, level: number) {
  const [row] = await db.select(levelColumns).from(pronunciationLevels).where(eq(pronunciationLevels.level, level));
  if (!row) return null;
  return {
    ...toAdminLevel(row),
    bandInfo: bandInfo(row.band),
    hasAudioUpload: Boolean(row.audioKey),
    /** An upload over a shipped recording that exists: "back to the shipped recording" is offered. */
    canRestoreAudio: Boolean(row.audioKey && row.audioAsset && hasShippedLevel(row.audioAsset)),
  };
}
export type LevelForEdit = NonNullable<Awaited<ReturnType<typeof findLevelForEdit>>>;

/** What a save replaced (old) and points to now (current), as public URLs, for cleaning up R2. */
export type LevelSaved = SavedUploads & { level: number };

const urlOf = (key: string | null) => (key ? publicPath(key) : null);

/**
 * Saves a level's form in one statement, which also returns the upload it replaced: a new upload wins;
 * "restore" drops the upload only when the shipped recording exists (a level always keeps a recording).
 * Null when the level does not exist.
 */
export async function updateLevel(db: DbOrTx, level: number, input: LevelInput, urls: Record<string, string>): Promise<LevelSaved | null> {
  const newAudio = urls.audio_url ? keyFromPublicUrl(urls.audio_url) : null;
  let restore = false;
  if (input.restore_audio === true && !newAudio) {
    const [row] = await db
      .select({ audioAsset: pronunciationLevels.audioAsset })
      .from(pronunciationLevels)
      .where(eq(pronunciationLevels.level, level));
    restore = Boolean(row?.audioAsset && hasShippedLevel(row.audioAsset));
  }
  const [row] = rowsOf<{ oldAudio: string | null; audio: string | null }>(
    await db.execute(sql`
      update pronunciation_levels as l
         set sentence = ${input.sentence},
             translation = ${input.translation},
             audio_key = case when ${newAudio}::text is not null then ${newAudio}::text
                              when ${restore} and l.audio_asset is not null then null
                              else l.audio_key end,
             updated_at = now()
        from (select level, audio_key from pronunciation_levels where level = ${level} for update) as old
       where l.level = old.level
   returning old.audio_key as "oldAudio", l.audio_key as "audio"`),
  );
  if (!row) return null;
  return { old: [urlOf(row.oldAudio)], current: [urlOf(row.audio)], level };
}

/**
 * The level form's action, after the guard and the level check: the shared admin form workflow with the
 * level's fields and recording; a save goes back to the list, scrolled to the level, with "Nível salvo".
 */
export function handleLevelSave(request: Request, context: AppLoadContext, level: number) {
  return handleAdminSave({
    request,
    context,
    schema: levelSchema,
    files: LEVEL_FILES,
    save: (value, urls) => updateLevel(context.db, level, value, urls),
    failure: (message) => `Falha ao salvar nível: ${message}`,
    notFound: "Nível não encontrado",
    success: {
      to: (saved) => `${LEVELS_ADMIN_PATH}#${levelAnchor(saved.level)}`,
      title: "Nível salvo",
      description: `Nível ${level}: a mudança já vale para a próxima tentativa.`,
    },
  });
}
