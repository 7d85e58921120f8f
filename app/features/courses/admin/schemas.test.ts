import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { EMBED_NOT_ALLOWED } from "~/lib/video-embed";
import { bannerSchema, isSafeGradient, lessonSchema, moduleSchema } from "./schemas";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.append(k, v);
  return data;
};
const errorsOf = (schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string>) => {
  const submission = parseWithZod(form(values), { schema });
  return submission.status === "success" ? {} : submission.error;
};

const validModule = { title: "Primeiros Passos", description: "", available: "yes", order_index: "1" };
const validLesson = { title: "Greetings", video_url: "https://youtu.be/dQw4w9WgXcQ", duration_seconds: "480", order_index: "1" };

describe("module form (spec §5)", () => {
  it("accepts a valid module and coerces numbers", () => {
    const submission = parseWithZod(form(validModule), { schema: moduleSchema });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toMatchObject({ title: "Primeiros Passos", order_index: 1, available: "yes" });
  });

  it("title 3–200 with the spec's messages", () => {
    expect(errorsOf(moduleSchema, { ...validModule, title: "" })).toMatchObject({ title: ["Mínimo 3 caracteres"] });
    expect(errorsOf(moduleSchema, { ...validModule, title: "ab" })).toMatchObject({ title: ["Mínimo 3 caracteres"] });
    expect(errorsOf(moduleSchema, { ...validModule, title: "  ab  " })).toMatchObject({ title: ["Mínimo 3 caracteres"] });
    expect(errorsOf(moduleSchema, { ...validModule, title: "x".repeat(201) })).toMatchObject({ title: ["Máximo 200 caracteres"] });
    expect(errorsOf(moduleSchema, { ...validModule, title: "x".repeat(200) })).toEqual({});
  });

  it("description ≤ 500, banner title ≤ 200, banner subtitle ≤ 500 (generic English messages)", () => {
    expect(errorsOf(moduleSchema, { ...validModule, description: "x".repeat(501) })).toMatchObject({
      description: ["String must contain at most 500 character(s)"],
    });
    expect(errorsOf(moduleSchema, { ...validModule, banner_title: "x".repeat(201) })).toMatchObject({
      banner_title: ["String must contain at most 200 character(s)"],
    });
    expect(errorsOf(moduleSchema, { ...validModule, banner_subtitle: "x".repeat(501) })).toMatchObject({
      banner_subtitle: ["String must contain at most 500 character(s)"],
    });
  });

  it("available is yes or no; order_index an integer ≥ 0", () => {
    expect(errorsOf(moduleSchema, { ...validModule, available: "maybe" })).toMatchObject({
      available: ["Invalid enum value. Expected 'yes' | 'no'"],
    });
    expect(errorsOf(moduleSchema, { ...validModule, order_index: "-1" })).toMatchObject({
      order_index: ["Number must be greater than or equal to 0"],
    });
    expect(errorsOf(moduleSchema, { ...validModule, order_index: "1.5" })).toMatchObject({ order_index: ["Expected integer, received float"] });
    expect(errorsOf(moduleSchema, { ...validModule, order_index: "abc" })).toMatchObject({ order_index: ["Expected number, received nan"] });
    expect(errorsOf(moduleSchema, { ...validModule, order_index: "" })).toMatchObject({ order_index: ["Required"] });
  });

  it("image addresses are ours (/media/…) or http(s)", () => {
    expect(errorsOf(moduleSchema, { ...validModule, image_url: "/media/modules/a.png", banner_url: "https://cdn.example/b.jpg" })).toEqual({});
    expect(errorsOf(moduleSchema, { ...validModule, image_url: "javascript:alert(1)" })).toMatchObject({ image_url: ["Invalid url"] });
  });
});

describe("lesson form (spec §5)", () => {
  it("accepts a lesson with a video URL or an allowed embed code", () => {
    expect(errorsOf(lessonSchema, validLesson)).toEqual({});
    expect(
      errorsOf(lessonSchema, { ...validLesson, video_url: "", iframe: '<iframe src="https://player.vimeo.com/video/1"></iframe>' }),
    ).toEqual({});
  });

  it("needs a video URL or an embed code — message on video_url", () => {
    expect(errorsOf(lessonSchema, { ...validLesson, video_url: "" })).toEqual({ video_url: ["Forneça uma URL de vídeo ou código iframe"] });
    // shown together with other errors
    expect(errorsOf(lessonSchema, { ...validLesson, title: "a", video_url: "" })).toMatchObject({
      title: ["Mínimo 3 caracteres"],
      video_url: ["Forneça uma URL de vídeo ou código iframe"],
    });
  });

  it("description ≤ 1000 with 'Máximo 1000 caracteres'", () => {
    expect(errorsOf(lessonSchema, { ...validLesson, description: "x".repeat(1001) })).toEqual({ description: ["Máximo 1000 caracteres"] });
    expect(errorsOf(lessonSchema, { ...validLesson, description: "x".repeat(1000) })).toEqual({});
  });

  it("refuses embed codes from other hosts and unplayable URLs, with clear messages", () => {
    expect(errorsOf(lessonSchema, { ...validLesson, iframe: '<iframe src="https://evil.example/x"></iframe>' })).toEqual({
      iframe: [EMBED_NOT_ALLOWED],
    });
    expect(errorsOf(lessonSchema, { ...validLesson, video_url: "https://example.com/pagina" })).toEqual({
      video_url: ["URL de vídeo não suportada: use um link do YouTube, do Vimeo ou de um arquivo .mp4, .webm ou .ogg."],
    });
  });

  it("duration_seconds and order_index are integers ≥ 0", () => {
    expect(errorsOf(lessonSchema, { ...validLesson, duration_seconds: "-5", order_index: "2.5" })).toEqual({
      duration_seconds: ["Number must be greater than or equal to 0"],
      order_index: ["Expected integer, received float"],
    });
  });
});

describe("courses banner form", () => {
  it("title ≤ 200, subtitle ≤ 500, safe gradients only, active checkbox", () => {
    const ok = parseWithZod(
      form({
        title: "Teacher FLIX",
        subtitle: "a || b",
        background_gradient: "linear-gradient(135deg, #312e81 0%, #be185d 100%)",
        is_active: "on",
      }),
      {
        schema: bannerSchema,
      },
    );
    expect(ok.status === "success" && ok.value.is_active).toBe(true);
    expect(errorsOf(bannerSchema, { title: "x".repeat(201) })).toMatchObject({ title: ["String must contain at most 200 character(s)"] });
    expect(errorsOf(bannerSchema, { subtitle: "x".repeat(501) })).toMatchObject({ subtitle: ["String must contain at most 500 character(s)"] });
    expect(isSafeGradient("radial-gradient(circle, rgba(0,0,0,.5) 0%, #fff 100%)")).toBe(true);
    expect(isSafeGradient("linear-gradient(red, blue); position: fixed")).toBe(false);
    expect(isSafeGradient("linear-gradient(red, blue), url(https://evil.example/x.png)")).toBe(false);
    expect(isSafeGradient("red")).toBe(false);
  });
});
