// "Buscando cartões..." (spec §2): shown while a game is being made — a picker tile's start or the
// result's Recomeçar — from the form's submission until the new game's page has loaded.
import { useNavigation } from "react-router";
import { LOADING_TEXT } from "../texts";

const START_INTENTS = new Set(["start", "review", "restart"]);

/** The start being made right now (a tile's or Recomeçar's form), for "Buscando cartões...". */
export function useStarting(): { starting: boolean; key: string | null } {
  const navigation = useNavigation();
  const intent = navigation.formData?.get("intent");
  const starting = navigation.state !== "idle" && typeof intent === "string" && START_INTENTS.has(intent);
  const category = navigation.formData?.get("category");
  return { starting, key: starting ? (typeof category === "string" ? category : String(intent)) : null };
}

/** The "Buscando cartões..." banner (a live region: screen readers hear it). */
export function StartingStatus({ starting }: { starting: boolean }) {
  return (
    <p role="status" aria-live="polite" className={starting ? "fixed inset-x-0 bottom-24 z-40 flex justify-center px-4 md:bottom-8" : "sr-only"}>
      {starting ? (
        <span className="flex items-center gap-2 rounded-full bg-slate-900 px-5 py-3 text-sm font-semibold text-white shadow-lg dark:bg-white dark:text-slate-900">
          <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />
          {LOADING_TEXT}
        </span>
      ) : null}
    </p>
  );
}
