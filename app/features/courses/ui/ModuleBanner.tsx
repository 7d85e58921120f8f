// The module page banner: banner_title or "Módulo {order}: {title}", banner_subtitle or description,
// the banner image (if any), the completion badge and "{done} de {total} aulas concluídas".
import type { ModulePage } from "../catalog.server";
import { cssImageUrl, lessonsDoneLabel, placeholderGradient, subtitleLines } from "../format";
import { LineBreaks, ProgressBadge } from "./parts";

export function moduleHeading(module: ModulePage["module"]): string {
  return module.bannerTitle?.trim() || `Módulo ${module.orderIndex}: ${module.title}`;
}

export function ModuleBanner({ page }: { page: ModulePage }) {
  const { module, done, total, progress } = page;
  const image = cssImageUrl(module.bannerUrl);
  const subtitle = subtitleLines(module.bannerSubtitle?.trim() || module.description);
  return (
    <section
      aria-labelledby="module-title"
      className={`relative overflow-hidden rounded-3xl px-5 py-8 text-white shadow-lg sm:px-8 sm:py-12 ${
        image ? "bg-slate-900" : `bg-gradient-to-br ${placeholderGradient(module.id)}`
      }`}
      style={
        image
          ? {
              backgroundImage: `linear-gradient(to top, rgb(2 6 23 / 0.85), rgb(2 6 23 / 0.3)), ${image}`,
              backgroundSize: "cover",
              backgroundPosition: "center",
            }
          : undefined
      }
    >
      {!image ? <div aria-hidden="true" className="absolute inset-0 bg-gradient-to-t from-slate-950/60 to-transparent" /> : null}
      <div className="relative max-w-3xl">
        <div className="flex flex-wrap items-center gap-2">
          {!module.available ? <span className="rounded-full bg-amber-300 px-2.5 py-0.5 text-xs font-bold text-amber-950">Em breve</span> : null}
          <ProgressBadge percent={progress} />
        </div>
        <h1 id="module-title" className="mt-2 text-2xl font-extrabold tracking-tight text-balance sm:text-4xl">
          {moduleHeading(module)}
        </h1>
        {subtitle.length > 0 ? (
          <p className="mt-2 max-w-2xl text-sm leading-relaxed text-white/90 sm:text-base">
            <LineBreaks lines={subtitle} />
          </p>
        ) : null}
        <div className="mt-5 max-w-md">
          <div
            role="progressbar"
            aria-label="Progresso do módulo"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="h-2 overflow-hidden rounded-full bg-white/25"
          >
            <div className="h-full rounded-full bg-emerald-400 transition-[width] duration-500" style={{ width: `${progress}%` }} />
          </div>
          <p className="mt-2 text-sm font-medium text-white/95" data-testid="module-progress-text">
            {lessonsDoneLabel(done, total)}
          </p>
        </div>
      </div>
    </section>
  );
}
