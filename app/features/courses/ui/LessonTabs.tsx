// Tabs of the lesson page: Informações / Materiais (Downloads on mobile) / Comentários.
// Without JavaScript they are links (`?tab=…`) and the server renders the chosen panel; once hydrated
// they become an ARIA tablist (arrow keys, Home/End) that switches panels in place.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useSearchParams } from "react-router";

export const LESSON_TABS = ["informacoes", "materiais", "comentarios"] as const;
export type LessonTab = (typeof LESSON_TABS)[number];

export function tabFromParam(value: string | null): LessonTab {
  return (LESSON_TABS as readonly string[]).includes(value ?? "") ? (value as LessonTab) : "informacoes";
}

type TabSpec = { id: LessonTab; label: ReactNode; icon: ReactNode; panel: ReactNode };

export function LessonTabs({ tabs }: { tabs: TabSpec[] }) {
  const [searchParams] = useSearchParams();
  const fromUrl = tabFromParam(searchParams.get("tab"));
  const [selected, setSelected] = useState<LessonTab>(fromUrl);
  const [enhanced, setEnhanced] = useState(false);
  const refs = useRef(new Map<LessonTab, HTMLAnchorElement>());

  useEffect(() => setEnhanced(true), []);
  // A navigation that names a tab (e.g. back to the comments after posting) selects it.
  useEffect(() => setSelected(fromUrl), [fromUrl]);

  const select = (id: LessonTab, focus = false) => {
    setSelected(id);
    if (focus) refs.current.get(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const last = tabs.length - 1;
    const to =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (to === null) {
      if (event.key === " ") {
        event.preventDefault();
        select(tabs[index]!.id);
      }
      return;
    }
    event.preventDefault();
    select(tabs[to]!.id, true);
  };

  return (
    <div id="abas" className="scroll-mt-20">
      <div
        role={enhanced ? "tablist" : undefined}
        aria-label={enhanced ? "Seções da aula" : undefined}
        className="flex gap-1 overflow-x-auto rounded-2xl bg-slate-200/70 p-1 dark:bg-night-800"
      >
        {tabs.map((tab) => {
          const active = tab.id === selected;
          return (
            <a
              key={tab.id}
              ref={(node) => {
                if (node) refs.current.set(tab.id, node);
                else refs.current.delete(tab.id);
              }}
              id={`aba-${tab.id}`}
              href={`?tab=${tab.id}#abas`}
              role={enhanced ? "tab" : undefined}
              aria-selected={enhanced ? active : undefined}
              aria-controls={enhanced ? `painel-${tab.id}` : undefined}
              aria-current={!enhanced && active ? "true" : undefined}
              tabIndex={enhanced && !active ? -1 : undefined}
              onClick={(event) => {
                event.preventDefault();
                select(tab.id);
              }}
              onKeyDown={enhanced ? onKeyDown : undefined}
              className={`flex min-w-0 flex-1 items-center justify-center gap-2 rounded-xl px-3 py-2 text-sm font-semibold whitespace-nowrap transition-colors ${
                active
                  ? "bg-white text-indigo-800 shadow-sm dark:bg-night-950 dark:text-white"
                  : "text-slate-700 hover:bg-white/60 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-night-700 dark:hover:text-white"
              }`}
            >
              {tab.icon}
              {tab.label}
            </a>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          id={`painel-${tab.id}`}
          role={enhanced ? "tabpanel" : undefined}
          aria-labelledby={enhanced ? `aba-${tab.id}` : undefined}
          tabIndex={enhanced ? 0 : undefined}
          hidden={tab.id !== selected}
          className="mt-4 rounded-2xl outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {tab.panel}
        </div>
      ))}
    </div>
  );
}
