// Buttons of the whole app: one set of variants and sizes. `buttonVariants()` styles links and
// Radix triggers as buttons; `Button` is a <button type="button">; `SubmitButton` shows its pending
// text while the form it belongs to is being submitted (with JavaScript; without it the browser
// simply navigates).
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { useNavigation } from "react-router";
import { cn, type ClassValue } from "./cn";

const VARIANTS = {
  primary: "bg-indigo-600 text-white shadow-sm hover:bg-indigo-700",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-night-700 dark:bg-night-900 dark:text-slate-100 dark:hover:bg-night-800",
  /** "Marcar como Concluída": once done it stays disabled and reads as a completed state, not a faded button. */
  success:
    "bg-emerald-700 text-white shadow-sm hover:bg-emerald-800 disabled:bg-emerald-100 disabled:text-emerald-900 disabled:opacity-100 dark:disabled:bg-emerald-400/15 dark:disabled:text-emerald-100",
  /** Confirms a destructive action. */
  danger: "bg-rose-600 text-white shadow-sm hover:bg-rose-500",
  /** Starts a destructive action (asks for confirmation first). */
  dangerOutline: "border border-rose-300 text-rose-700 hover:bg-rose-50 dark:border-rose-800 dark:text-rose-300 dark:hover:bg-rose-950/50",
  ghost: "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-night-800 dark:hover:text-white",
} as const;

const SIZES = {
  sm: "rounded-lg px-3 py-2 text-sm",
  md: "rounded-xl px-4 py-2.5 text-sm",
  lg: "rounded-xl px-5 py-3 text-base",
  /** A square icon-only button (give it an aria-label). */
  icon: "shrink-0 rounded-lg p-2",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;
export type ButtonStyle = { variant?: ButtonVariant; size?: ButtonSize; className?: ClassValue };

/** The classes of a button; `className` is merged last (tailwind-merge), so it can override. */
export function buttonVariants({ variant = "primary", size = "md", className }: ButtonStyle = {}): string {
  return cn(
    "inline-flex items-center justify-center gap-2 font-semibold disabled:cursor-not-allowed disabled:opacity-60",
    SIZES[size],
    VARIANTS[variant],
    className,
  );
}

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "className"> & ButtonStyle;

export function Button({ variant, size, className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonVariants({ variant, size, className })} {...props} />;
}

export type SubmitButtonProps = Omit<ButtonProps, "type" | "children"> & {
  children: ReactNode;
  /** Shown instead of the label while submitting. */
  pendingText: ReactNode;
  /** Overrides the default (any form of the page is being submitted), e.g. for one form among several. */
  pending?: boolean;
};

export function SubmitButton({ children, pendingText, pending, disabled, ...props }: SubmitButtonProps) {
  const navigation = useNavigation();
  const busy = pending ?? navigation.state === "submitting";
  return (
    <Button type="submit" disabled={busy || disabled} aria-busy={busy || undefined} {...props}>
      {busy ? pendingText : children}
    </Button>
  );
}
