// The field classes of ~/components/forms (inputClass, labelClass), repeated here so that the console's
// pages without a conform form do not load the forms chunk (conform + zod, ~39 KB gzip) for two strings.
// styles.test.ts keeps them equal to the originals.
export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 aria-[invalid=true]:border-red-600 dark:border-night-700 dark:bg-night-950 dark:text-white dark:placeholder:text-slate-400";
export const labelClass = "mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200";
