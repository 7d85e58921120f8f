// Pure helpers of the course pages (spec §9): durations, lesson codes, progress, relative times,
// banner text and styles. Shared by server and browser code, unit-tested beside this file.

/** Whole minutes, floored (spec §9: seconds/60 floored). Negative or missing durations count as 0. */
export function minutesOf(seconds: number | null | undefined): number {
  if (!seconds || !Number.isFinite(seconds) || seconds < 0) return 0;
  return Math.floor(seconds / 60);
}

export function minutesLabel(seconds: number | null | undefined): string {
  return `${minutesOf(seconds)} min`;
}

export function lessonCountLabel(count: number): string {
  return `${count} ${count === 1 ? "aula" : "aulas"}`;
}

const pad2 = (value: number) => String(Math.max(0, Math.trunc(value))).padStart(2, "0");

/** Lesson code for "Praticar com a Nika": M{module order, 2 digits}A{lesson order, 2 digits}. */
export function lessonCode(moduleOrder: number, lessonOrder: number): string {
  return `M${pad2(moduleOrder)}A${pad2(lessonOrder)}`;
}

/** "Praticar com a Nika" exists only for lessons of modules with order_index 1 or higher. */
export function practiceLessonCode(moduleOrder: number, lessonOrder: number): string | null {
  return moduleOrder >= 1 ? lessonCode(moduleOrder, lessonOrder) : null;
}

/** Module progress in whole percent: completed/total*100, clamped 0–100 (0 for an empty module). */
export function progressPercent(completed: number, total: number): number {
  if (!total || total <= 0 || !Number.isFinite(completed)) return 0;
  return clampPercent(Math.round((completed / total) * 100));
}

export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** The card badge: "Concluído" at 100 %, "N% Completo" above 0, nothing at 0. */
export function progressBadge(percent: number): string | null {
  const value = clampPercent(percent);
  if (value >= 100) return "Concluído";
  if (value > 0) return `${value}% Completo`;
  return null;
}

export function lessonsDoneLabel(done: number, total: number): string {
  return `${done} de ${total} aulas concluídas`;
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

let rtf: Intl.RelativeTimeFormat | undefined;

/**
 * "há 5 minutos", "há 2 horas", "há 3 dias" (Intl.RelativeTimeFormat, pt-BR). `now` comes from the
 * loader, so the server and the browser render the same text (no hydration mismatch).
 */
export function relativeTimePtBr(date: Date | string | number, now: Date | number): string {
  const then = new Date(date).getTime();
  const seconds = Math.round((new Date(now).getTime() - then) / 1000);
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return "agora mesmo";
  rtf ??= new Intl.RelativeTimeFormat("pt-BR", { numeric: "always" });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (seconds >= size) return rtf.format(-Math.floor(seconds / size), unit);
  }
  return "agora mesmo";
}

/** Banner subtitle: the double-bar separator `||` becomes line breaks. */
export function subtitleLines(subtitle: string | null | undefined): string[] {
  if (!subtitle) return [];
  return subtitle
    .split("||")
    .map((line) => line.trim())
    .filter(Boolean);
}

export const DEFAULT_HERO_GRADIENT = "linear-gradient(135deg, #312e81 0%, #4338ca 45%, #7c3aed 100%)";
export const DEFAULT_HERO_TITLE = "Cursos em Vídeo";

/**
 * Only plain CSS gradients from the banner row reach a `style` attribute (no `url(`, no `;`, no
 * comments): anything else falls back to the default gradient.
 */
export function safeGradient(value: string | null | undefined): string | null {
  if (!value) return null;
  const gradient = value.trim();
  if (gradient.length > 500) return null;
  if (!/^(repeating-)?(linear|radial|conic)-gradient\(/i.test(gradient)) return null;
  if (/url\s*\(|expression|[;{}<>\\]|\/\*/i.test(gradient)) return null;
  return gradient;
}

/** `url("…")` for http(s) or same-site image URLs; null otherwise. */
export function cssImageUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  const url = value.trim();
  if (!/^(https?:\/\/|\/(?!\/))/i.test(url)) return null;
  return `url("${url.replace(/["\\\n\r]/g, (c) => encodeURIComponent(c))}")`;
}

/** Images shown through <img src>: http(s) or same-site paths only. */
export function safeImageSrc(value: string | null | undefined): string | null {
  if (!value) return null;
  const url = value.trim();
  return /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : null;
}

/** Gradient placeholder of a module without an image, stable per module. */
const PLACEHOLDER_GRADIENTS = [
  "from-indigo-600 to-violet-700",
  "from-rose-600 to-orange-600",
  "from-emerald-600 to-teal-700",
  "from-sky-600 to-blue-700",
  "from-fuchsia-600 to-purple-700",
  "from-amber-600 to-red-700",
];

export function placeholderGradient(seed: string): string {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) | 0;
  return PLACEHOLDER_GRADIENTS[Math.abs(hash) % PLACEHOLDER_GRADIENTS.length]!;
}

/** Longest comment accepted (the app's text sanitiser limit, spec §9). */
export const COMMENT_MAX_LENGTH = 5000;
