// Class names: clsx for conditions, tailwind-merge so a later utility wins over a variant's
// (`cn(buttonVariants(), "px-6")` gives px-6, not both).
import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

export type { ClassValue };

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
