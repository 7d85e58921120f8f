// A refused form post, as a page shows it: out of credits opens the 'Créditos Esgotados' dialog with
// JavaScript (loaded on first use) and is the same message in the page without it; any other refusal
// is its [title, description] (conform's form errors) in a box.
import type { SubmissionResult } from "@conform-to/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { BUY_CREDITS_PATH, CreditsExhaustedNotice } from "~/components/credits";
import { NoticeBox } from "~/components/notice";
import { useHydrated } from "~/lib/use-hydrated";

const CreditsDialog = lazy(() => import("~/components/CreditsDialog").then((m) => ({ default: m.CreditsDialog })));

/** What a refused action answers: conform's reply with formErrors [title, description], and a code. */
export type RefusalData = { result: SubmissionResult<string[]>; code: string };

export const CREDITS_EXHAUSTED_CODE = "credits_exhausted";

/** `closeTo`: where closing the credits dialog goes (default: stay on the page). */
export function Refusal({
  data,
  backTo,
  closeTo,
  className,
}: {
  data: RefusalData | null | undefined;
  backTo: string;
  closeTo?: string;
  className?: string;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [dialogOpen, setDialogOpen] = useState(false);
  // Every refused submission is a new object: the dialog opens again after it was closed.
  useEffect(() => setDialogOpen(data?.code === CREDITS_EXHAUSTED_CODE), [data]);
  if (!data) return null;
  if (data.code === CREDITS_EXHAUSTED_CODE) {
    if (!hydrated) return <CreditsExhaustedNotice backTo={backTo} className={className} />;
    const onOpenChange = (open: boolean) => {
      setDialogOpen(open);
      if (!open && closeTo) navigate(closeTo);
    };
    return dialogOpen ? (
      <Suspense fallback={null}>
        <CreditsDialog open onOpenChange={onOpenChange} buyTo={BUY_CREDITS_PATH} />
      </Suspense>
    ) : null;
  }
  const [title = "", description] = data.result.error?.[""] ?? [];
  return <NoticeBox notice={{ tone: "error", title, description }} className={className} />;
}
