// A module card of the /courses grid: image 4:5 (or a gradient placeholder) and title; on desktop
// hover (or keyboard focus) the description, lessons, minutes and progress expand — in 300 ms on
// enter, collapsing 1 s after leave over 2 s — in CSS alone, so it costs no JavaScript.
import { Link } from "react-router";
import { ClockIcon, PlayIcon } from "~/components/icons";
import type { ModuleCard as ModuleCardData } from "../catalog.server";
import { lessonCountLabel, minutesOf, placeholderGradient, safeImageSrc } from "../format";
import { EditLink, ProgressBadge } from "./parts";

/** Expand/collapse timing of spec §4 (enter 300 ms; leave: wait 1000 ms, then 2000 ms). */
const EXPANDER =
  "hidden md:grid grid-rows-[0fr] transition-[grid-template-rows,opacity] ease-in-out duration-[2000ms] delay-1000 opacity-0 " +
  "group-hover:grid-rows-[1fr] group-hover:opacity-100 group-hover:duration-300 group-hover:delay-0 " +
  "group-focus-visible:grid-rows-[1fr] group-focus-visible:opacity-100 group-focus-visible:duration-300 group-focus-visible:delay-0";

export function ModuleCard({ module, isAdmin, eager }: { module: ModuleCardData; isAdmin: boolean; eager?: boolean }) {
  const titleId = `modulo-${module.id}-titulo`;
  const body = <CardBody module={module} titleId={titleId} eager={eager} />;
  return (
    <li className="flex flex-col gap-2" data-testid="module-card">
      {isAdmin ? (
        <div>
          <EditLink to={`/courses/modules/${module.id}/edit`}>Editar Módulo</EditLink>
        </div>
      ) : null}
      {module.available ? (
        <Link
          to={`/courses/modules/${module.id}`}
          prefetch="intent"
          className="group block rounded-2xl transition-transform duration-300 hover:-translate-y-1 focus-visible:-translate-y-1"
        >
          {body}
        </Link>
      ) : (
        // Coming soon: dimmed picture, not a link (spec: "unavailable does nothing"). Text keeps its contrast.
        <div className="group rounded-2xl">{body}</div>
      )}
    </li>
  );
}

function CardBody({ module, titleId, eager }: { module: ModuleCardData; titleId: string; eager?: boolean }) {
  const image = safeImageSrc(module.imageUrl);
  const dim = module.available ? "" : "opacity-45 grayscale";
  return (
    <div className="relative aspect-[4/5] overflow-hidden rounded-2xl bg-slate-800 shadow-md ring-1 ring-black/5 group-hover:shadow-xl dark:ring-white/10">
      {image ? (
        <img
          src={image}
          alt=""
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className={`absolute inset-0 size-full object-cover transition-transform duration-500 group-hover:scale-105 ${dim}`}
        />
      ) : (
        <div aria-hidden="true" className={`absolute inset-0 bg-gradient-to-br ${placeholderGradient(module.id)} ${dim}`}>
          <div className="absolute -top-8 -right-8 size-32 rounded-full bg-white/15" />
          <div className="absolute bottom-24 -left-6 size-24 rounded-full bg-black/10" />
          <span className="absolute top-3 left-4 text-5xl font-black text-white/25">{String(module.orderIndex).padStart(2, "0")}</span>
        </div>
      )}
      {!module.available ? (
        <span className="absolute top-2 right-2 rounded-full bg-amber-300 px-2.5 py-0.5 text-xs font-bold text-amber-950 shadow">Em breve</span>
      ) : null}
      <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-slate-950 via-slate-950/85 to-transparent px-3 pt-16 pb-3 sm:px-4 sm:pb-4">
        <h3 id={titleId} className="text-sm leading-snug font-bold text-white sm:text-base">
          {module.title}
        </h3>
        <div className={EXPANDER} data-testid="module-card-details">
          <div className="min-h-0 overflow-hidden">
            {module.description ? <p className="mt-2 line-clamp-3 text-sm leading-snug text-slate-100">{module.description}</p> : null}
            <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs font-medium text-slate-100">
              <span className="inline-flex items-center gap-1">
                <PlayIcon size={13} />
                {lessonCountLabel(module.lessonCount)}
              </span>
              <span className="inline-flex items-center gap-1">
                <ClockIcon size={13} />
                {minutesOf(module.totalSeconds)} min
              </span>
            </p>
            <ProgressBadge percent={module.progress} className="mt-2" />
          </div>
        </div>
      </div>
    </div>
  );
}
