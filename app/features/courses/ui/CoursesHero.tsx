// The /courses hero: the active courses banner (title, subtitle with `||` line breaks, background image
// or gradient), or "Cursos em Vídeo" on the default gradient.
import type { CSSProperties } from "react";
import type { HeroBanner } from "../catalog.server";
import { cssImageUrl, DEFAULT_HERO_GRADIENT, DEFAULT_HERO_TITLE, safeGradient, subtitleLines } from "../format";
import { EditLink, LineBreaks } from "./parts";

/** Darkens any banner image or gradient enough for white text. */
const SCRIM = "linear-gradient(to top, rgb(2 6 23 / 0.78), rgb(2 6 23 / 0.25))";

export function heroBackground(banner: HeroBanner | null): CSSProperties {
  const image = cssImageUrl(banner?.backgroundImageUrl);
  if (image) return { backgroundImage: `${SCRIM}, ${image}`, backgroundSize: "cover", backgroundPosition: "center" };
  const gradient = safeGradient(banner?.backgroundGradient) ?? DEFAULT_HERO_GRADIENT;
  return { backgroundImage: `linear-gradient(to top, rgb(2 6 23 / 0.35), transparent), ${gradient}` };
}

export function CoursesHero({ banner, isAdmin }: { banner: HeroBanner | null; isAdmin: boolean }) {
  const title = banner?.title?.trim() || DEFAULT_HERO_TITLE;
  const lines = subtitleLines(banner?.subtitle);
  return (
    <section
      aria-labelledby="courses-hero-title"
      className="relative overflow-hidden rounded-3xl bg-indigo-900 px-5 py-9 text-white shadow-lg shadow-indigo-950/20 sm:px-10 sm:py-14"
      style={heroBackground(banner)}
      data-testid="courses-hero"
    >
      <div aria-hidden="true" className="absolute -top-16 -right-10 size-56 rounded-full bg-white/10 blur-2xl" />
      {isAdmin ? (
        <div className="relative mb-4 flex justify-end sm:absolute sm:top-4 sm:right-4 sm:mb-0">
          <EditLink to="/courses/banner/edit">Editar banner</EditLink>
        </div>
      ) : null}
      <div className="relative max-w-2xl">
        <h1 id="courses-hero-title" className="text-3xl font-extrabold tracking-tight text-balance sm:text-5xl">
          {title}
        </h1>
        {lines.length > 0 ? (
          <p className="mt-3 text-base leading-relaxed text-white/90 sm:text-lg">
            <LineBreaks lines={lines} />
          </p>
        ) : null}
      </div>
    </section>
  );
}
