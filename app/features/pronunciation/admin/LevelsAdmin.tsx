// The admin's list of the pronunciation levels: the 100 levels grouped by band
// (the sound they train), each with its sentence, translation, where its reference recording comes
// from and a link to its form — rendered where `children` go, over this list (AdminPanel).
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ADMIN_PANEL_ID } from "~/components/admin/panel-id";
import { buttonVariants } from "~/components/button";
import { ArrowLeftIcon, PencilIcon } from "~/components/icons";
import type { AdminLevel, LevelAudioSource, LevelsAdmin as LevelsAdminData } from "./levels-admin.server";
import { editLevelPath, levelAnchor, PRONUNCIATION_PATH } from "./paths";

const AUDIO_LABELS: Record<LevelAudioSource, string> = {
  upload: "áudio enviado",
  shipped: "áudio original",
};

export function LevelsAdmin({ data, children }: { data: LevelsAdminData; children?: ReactNode }) {
  const uploads = data.bands.reduce((sum, band) => sum + band.levels.filter((level) => level.audioSource === "upload").length, 0);
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-8">
      <Link to={PRONUNCIATION_PATH} className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3" })}>
        <ArrowLeftIcon size={18} />
        Voltar ao jogo de pronúncia
      </Link>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">Níveis de pronúncia</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {data.count} níveis · {uploads} com áudio enviado. As mudanças valem na próxima tentativa de cada nível.
      </p>
      {children}
      {data.count === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600 dark:border-night-700 dark:text-slate-300">
          Nenhum nível cadastrado.
        </p>
      ) : null}
      {data.bands.map((band) => (
        <section key={band.band} aria-labelledby={`banda-${band.band}`} className="mt-8">
          <h2 id={`banda-${band.band}`} className="text-lg font-semibold">
            Banda {band.band}: {band.title}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">{band.sound}</p>
          <ol className="mt-3 flex flex-col gap-3" aria-label={`Níveis da banda ${band.band}`}>
            {band.levels.map((level) => (
              <LevelRow key={level.level} level={level} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

function LevelRow({ level }: { level: AdminLevel }) {
  return (
    <li
      id={levelAnchor(level.level)}
      data-testid="pronunciation-admin-level"
      className="flex scroll-mt-24 flex-col gap-3 rounded-xl border border-slate-200 bg-white p-3 sm:flex-row sm:items-center dark:border-night-700 dark:bg-night-900"
    >
      <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-lg font-bold dark:bg-night-800">
        <span className="sr-only">Nível </span>
        {level.level}
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold" lang="en">
          {level.sentence}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-200">{level.translation}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">Som: {AUDIO_LABELS[level.audioSource]}</p>
      </div>
      <Link
        to={`${editLevelPath(level.level)}#${ADMIN_PANEL_ID}`}
        preventScrollReset
        aria-label={`Editar nível ${level.level}`}
        className={buttonVariants({ variant: "secondary", size: "sm" })}
      >
        <PencilIcon size={14} />
        Editar
      </Link>
    </li>
  );
}
