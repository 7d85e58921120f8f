// A refused start, answer or restart, as the page shows it: out of credits opens the 'Créditos
// Esgotados' dialog with JavaScript (loaded on first use) and is the same message in the page without
// it; any other refusal is its [title, description] in a box.
import { lazy, Suspense, useEffect, useState } from "react";
import { BUY_CREDITS_PATH, CreditsExhaustedNotice } from "~/components/credits";
import { NoticeBox } from "~/components/notice";
import { useHydrated } from "~/lib/use-hydrated";
import type { FlashcardActionData } from "./page.server";

const CreditsDialog = lazy(() => import("~/components/CreditsDialog").then((m) => ({ default: m.CreditsDialog })));

export function Refusal({ data, backTo, className }: { data: FlashcardActionData | null | undefined; backTo: string; className?: string }) {
  const hydrated = useHydrated();
  const [dialogOpen, setDialogOpen] = useState(false);
  // Every refused submission is a new object: the dialog opens again after it was closed.
  useEffect(() => setDialogOpen(data?.code === "credits_exhausted"), [data]);
  if (!data) return null;
  if (data.code === "credits_exhausted") {
    if (!hydrated) return <CreditsExhaustedNotice backTo={backTo} className={className} />;
    return dialogOpen ? (
      <Suspense fallback={null}>
        <CreditsDialog open onOpenChange={setDialogOpen} buyTo={BUY_CREDITS_PATH} />
      </Suspense>
    ) : null;
  }
  const [title = "", description] = data.result.error?.[""] ?? [];
  return <NoticeBox notice={{ tone: "error", title, description }} className={className} />;
}
