import { describe, expect, it } from "vitest";
import {
  clampPercent,
  cssImageUrl,
  lessonCode,
  lessonCountLabel,
  lessonsDoneLabel,
  minutesLabel,
  minutesOf,
  practiceLessonCode,
  progressBadge,
  progressPercent,
  relativeTimePtBr,
  safeGradient,
  safeImageSrc,
  subtitleLines,
} from "./format";
import { tabFromParam } from "./ui/LessonTabs";
import { coursePageOf } from "./ui/Skeletons";

describe("course formatting", () => {
  it("shows durations as whole minutes, floored", () => {
    expect(minutesOf(0)).toBe(0);
    expect(minutesOf(59)).toBe(0);
    expect(minutesOf(60)).toBe(1);
    expect(minutesOf(119)).toBe(1);
    expect(minutesOf(3599)).toBe(59);
    expect(minutesOf(-30)).toBe(0);
    expect(minutesOf(null)).toBe(0);
    expect(minutesLabel(540)).toBe("9 min");
  });

  it("builds the lesson code M{2 digits}A{2 digits}", () => {
    expect(lessonCode(1, 3)).toBe("M01A03");
    expect(lessonCode(12, 10)).toBe("M12A10");
    expect(lessonCode(0, 0)).toBe("M00A00");
    expect(lessonCode(123, 4)).toBe("M123A04");
  });

  it("offers practice only for modules with order_index 1 or higher", () => {
    expect(practiceLessonCode(0, 1)).toBeNull();
    expect(practiceLessonCode(1, 2)).toBe("M01A02");
    expect(practiceLessonCode(-1, 2)).toBeNull();
  });

  it("computes module progress clamped to 0–100", () => {
    expect(progressPercent(0, 0)).toBe(0);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(2, 3)).toBe(67);
    expect(progressPercent(3, 3)).toBe(100);
    expect(progressPercent(5, 3)).toBe(100);
    expect(progressPercent(-1, 3)).toBe(0);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(140)).toBe(100);
  });

  it("labels progress: Concluído at 100, N% Completo above 0, nothing at 0", () => {
    expect(progressBadge(100)).toBe("Concluído");
    expect(progressBadge(50)).toBe("50% Completo");
    expect(progressBadge(1)).toBe("1% Completo");
    expect(progressBadge(0)).toBeNull();
    expect(lessonsDoneLabel(1, 4)).toBe("1 de 4 aulas concluídas");
    expect(lessonCountLabel(20)).toBe("20 aulas");
    expect(lessonCountLabel(1)).toBe("1 aula");
  });

  it("writes relative times in Brazilian Portuguese", () => {
    const now = new Date("2025-06-10T12:00:00Z");
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
    expect(relativeTimePtBr(ago(10), now)).toBe("agora mesmo");
    expect(relativeTimePtBr(ago(60), now)).toBe("há 1 minuto");
    expect(relativeTimePtBr(ago(5 * 60), now)).toBe("há 5 minutos");
    expect(relativeTimePtBr(ago(2 * 3600), now)).toBe("há 2 horas");
    expect(relativeTimePtBr(ago(3 * 86400), now)).toBe("há 3 dias");
    expect(relativeTimePtBr(ago(14 * 86400), now)).toBe("há 2 semanas");
    expect(relativeTimePtBr(ago(65 * 86400), now)).toBe("há 2 meses");
    expect(relativeTimePtBr(ago(800 * 86400), now)).toBe("há 2 anos");
    expect(relativeTimePtBr(ago(-30), now)).toBe("agora mesmo"); // a clock slightly ahead
    expect(relativeTimePtBr(ago(300).toISOString(), now.getTime())).toBe("há 5 minutos");
  });

  it("turns the banner subtitle's || into lines", () => {
    expect(subtitleLines("Aulas curtas || No seu ritmo")).toEqual(["Aulas curtas", "No seu ritmo"]);
    expect(subtitleLines("Uma linha")).toEqual(["Uma linha"]);
    expect(subtitleLines("a||b||c")).toEqual(["a", "b", "c"]);
    expect(subtitleLines(null)).toEqual([]);
    expect(subtitleLines("  ||  ")).toEqual([]);
  });

  it("lets only plain gradients and http(s) images into style attributes", () => {
    expect(safeGradient("linear-gradient(135deg, #312e81 0%, #6d28d9 55%)")).toBe("linear-gradient(135deg, #312e81 0%, #6d28d9 55%)");
    expect(safeGradient("radial-gradient(circle, red, blue)")).toBe("radial-gradient(circle, red, blue)");
    expect(safeGradient("linear-gradient(red, blue); background: url(https://evil.test/x)")).toBeNull();
    expect(safeGradient("url(https://evil.test/x)")).toBeNull();
    expect(safeGradient("red")).toBeNull();
    expect(cssImageUrl("https://cdn.test/a b.jpg")).toBe('url("https://cdn.test/a b.jpg")');
    expect(cssImageUrl('https://cdn.test/x".jpg')).toBe('url("https://cdn.test/x%22.jpg")');
    expect(cssImageUrl("/media/banner.png")).toBe('url("/media/banner.png")');
    expect(cssImageUrl("javascript:alert(1)")).toBeNull();
    expect(cssImageUrl("//evil.test/x.png")).toBeNull();
    expect(safeImageSrc("data:image/png;base64,xx")).toBeNull();
    expect(safeImageSrc("https://cdn.test/m.png")).toBe("https://cdn.test/m.png");
  });

  it("knows which course page a path shows (nested admin routes belong to their page)", () => {
    expect(coursePageOf("/courses")).toBe("catalogue");
    expect(coursePageOf("/courses/")).toBe("catalogue");
    expect(coursePageOf("/courses/modules/abc")).toBe("modules:abc");
    expect(coursePageOf("/courses/modules/abc/edit")).toBe("modules:abc");
    expect(coursePageOf("/courses/lessons/x/materials")).toBe("lessons:x");
    expect(coursePageOf("/courses/banner/edit")).toBe("other:/banner/edit");
    expect(coursePageOf("/labs")).toBeNull();
  });

  it("reads the lesson tab from ?tab=, defaulting to Informações", () => {
    expect(tabFromParam("comentarios")).toBe("comentarios");
    expect(tabFromParam("materiais")).toBe("materiais");
    expect(tabFromParam("x")).toBe("informacoes");
    expect(tabFromParam(null)).toBe("informacoes");
  });
});
