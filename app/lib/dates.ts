// São Paulo time, the product's calendar (spec §9): dates as learners read them (pt-BR) and the calendar's parts for
// the credit month, the renewal date and the daily countdown. Each formatter is built on first use and kept — building one
// costs more than formatting with it, and a browser's first one loads ICU data, which is why pages
// get these labels from their loaders rather than format while they hydrate (decision 0019).
const SAO_PAULO = "America/Sao_Paulo";

let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** "25/11/2026" */
export function saoPauloDate(date: Date | string): string {
  dateFormat ??= new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: SAO_PAULO });
  return dateFormat.format(new Date(date));
}

/** "25/11/2026, 14:05" */
export function saoPauloDateTime(date: Date | string): string {
  dateTimeFormat ??= new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short", timeZone: SAO_PAULO });
  return dateTimeFormat.format(new Date(date));
}

let clock: Intl.DateTimeFormat | undefined;

/** The São Paulo calendar date and wall-clock time of `now`, as numbers. */
export function saoPauloParts(now: Date) {
  clock ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: SAO_PAULO,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const parts = clock.formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}
