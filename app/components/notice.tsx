// An inline message box: the answer of a form action shown in the page (always visible without
// JavaScript), an error as role="alert", anything else as role="status".
import type { ReactNode } from "react";
import { cn } from "./cn";

export type Notice = { tone: "error" | "success" | "info"; title: string; description?: string };

const TONES: Record<Notice["tone"], string> = {
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100",
  success: "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100",
  info: "border-indigo-300 bg-indigo-50 text-indigo-900 dark:border-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-100",
};

/** Renders nothing without a notice, so an action's optional notice can be passed as it is. */
export function NoticeBox({ notice, children, className }: { notice: Notice | null | undefined; children?: ReactNode; className?: string }) {
  if (!notice) return null;
  return (
    <div role={notice.tone === "error" ? "alert" : "status"} className={cn("mb-4 rounded-lg border p-3 text-sm", TONES[notice.tone], className)}>
      <p className="font-semibold">{notice.title}</p>
      {notice.description ? <p className="mt-1">{notice.description}</p> : null}
      {children}
    </div>
  );
}
