// Teacher FLIX, admin side: every loader and action of the nested admin routes (module, lesson,
// materials, courses banner), the material download and the media route — against PGlite with the
// real migrations and a real R2 implementation (Miniflare). Refusals are checked by what is stored.
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lessons, modules, siteBanners, type DownloadableMaterial } from "~/features/courses/tables";
import * as bannerEdit from "~/routes/_app+/courses+/_catalogue+/banner.edit";
import * as lessonEdit from "~/routes/_app+/courses+/lessons.$lessonId.edit";
import * as materialsRoute from "~/routes/_app+/courses+/lessons.$lessonId.materials";
import * as downloadRoute from "~/routes/_app+/courses+/lessons.$lessonId.materials.$file.download";
import * as moduleEdit from "~/routes/_app+/courses+/modules.$moduleId.edit";
import * as media from "~/routes/media.$";
import type { Database } from "~/server/db.server";
import { appConfig } from "~/server/schema";
import {
  args,
  call,
  contextFor,
  CookieJar,
  createAdminWorld,
  multipart,
  NO_FILE,
  request,
  toastOf,
  type AdminWorld,
  type Outcome,
  type Part,
  expectRefusal,
  type AdminReply,
} from "./harness";

const PNG = new Uint8Array(readFileSync("tests/fixtures/tiny.png"));
const PDF = new Uint8Array(readFileSync("tests/fixtures/apostila-aula.pdf"));
const FAKE_PNG = new Uint8Array(readFileSync("tests/fixtures/fake-image.png"));
const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const IMAGE_LIMIT = 5_242_880;
const MATERIAL_LIMIT = 52_428_800;

let { db, bucket, ctx, admin, learner, anonymous } = {} as AdminWorld;
beforeAll(async () => ({ db, bucket, ctx, admin, learner, anonymous } = await createAdminWorld()));
afterAll(() => bucket?.dispose());
beforeEach(() => bucket.clear());

async function createModule(values: Partial<typeof modules.$inferInsert> = {}) {
  const [row] = await db
    .insert(modules)
    .values({ title: "Módulo de teste", description: "Descrição", orderIndex: 7, available: "yes", ...values })
    .returning();
  return row!;
}
async function createLesson(moduleId: string, values: Partial<typeof lessons.$inferInsert> = {}) {
  const [row] = await db
    .insert(lessons)
    .values({ moduleId, title: "Aula de teste", videoUrl: "https://youtu.be/dQw4w9WgXcQ", durationSeconds: 300, orderIndex: 1, ...values })
    .returning();
  return row!;
}
const moduleRow = async (id: string) => (await db.select().from(modules).where(eq(modules.id, id)))[0]!;
const lessonRow = async (id: string) => (await db.select().from(lessons).where(eq(lessons.id, id)))[0]!;

const moduleForm = (values: Record<string, Part> = {}): Record<string, Part> => ({
  title: "Módulo editado",
  description: "Nova descrição",
  image_url: "",
  image_file: NO_FILE,
  banner_url: "",
  banner_file: NO_FILE,
  banner_title: "Banner editado",
  banner_subtitle: "Subtítulo editado",
  available: "no",
  order_index: "3",
  ...values,
});
const lessonForm = (values: Record<string, Part> = {}): Record<string, Part> => ({
  title: "Aula editada",
  description: "Sobre a aula",
  video_url: "https://vimeo.com/76979871",
  iframe: "",
  thumbnail_url: "",
  thumbnail_file: NO_FILE,
  duration_seconds: "600",
  order_index: "2",
  ...values,
});

/** What the admin actions answer when they do not redirect: the conform reply and the refusal's code. */
type Reply = AdminReply;
type PostOptions = { jar?: CookieJar; context?: AppLoadContext };

/** Runs an admin action on a prepared request (e.g. one whose body must stay unread). */
const moduleAction = (moduleId: string, req: Request, context = ctx()) => call<Reply>(() => moduleEdit.action(args(req, context, { moduleId })));
const materialsAction = (lessonId: string, req: Request, context = ctx()) =>
  call<Reply>(() => materialsRoute.action(args(req, context, { lessonId })));

/** Posts the module form (moduleForm changed by `values`), as the admin unless told otherwise. */
const editModule = (moduleId: string, values: Record<string, Part> = {}, { jar = admin, context = ctx() }: PostOptions = {}) =>
  moduleAction(moduleId, multipart(`/courses/modules/${moduleId}/edit`, jar, moduleForm(values)), context);
/** Posts the lesson form (lessonForm changed by `values`). */
const editLesson = (lessonId: string, values: Record<string, Part> = {}, { jar = admin, context = ctx() }: PostOptions = {}) =>
  call<Reply>(() => lessonEdit.action(args(multipart(`/courses/lessons/${lessonId}/edit`, jar, lessonForm(values)), context, { lessonId })));
/** Posts the banner form with just these fields. */
const editBanner = (fields: Record<string, Part>, { jar = admin, context = ctx() }: PostOptions = {}) =>
  call<Reply>(() => bannerEdit.action(args(multipart("/courses/banner/edit", jar, fields), context)));
/** Uploads one material from the materials drawer. */
const upload = (lessonId: string, file: Part, { jar = admin, context = ctx() }: PostOptions = {}) =>
  materialsAction(lessonId, multipart(`/courses/lessons/${lessonId}/materials`, jar, { intent: "upload", file }), context);

/** A save: redirected to the page under the panel with the success toast. */
async function expectSaved(outcome: Outcome, location: string, description: string) {
  expect(outcome).toMatchObject({ status: 302, location });
  expect(await toastOf(outcome)).toEqual({ type: "success", title: "Sucesso", description });
}

/** Posts the url-encoded removal form of the materials drawer. */
const removeMaterial = (lessonId: string, form: Record<string, string>, jar = admin) =>
  materialsAction(lessonId, request(`/courses/lessons/${lessonId}/materials`, { jar, form }));

/** The same database, except that raw statements (the update) fail: a lost connection mid-save. */
function failingExecute(real: Database): Database {
  return new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === "execute") return async () => Promise.reject(new Error("conexão perdida"));
      return Reflect.get(target, prop, receiver);
    },
  });
}
const failingContext = () => contextFor(failingExecute(db), { MEDIA: bucket.bucket });

const IMAGE_TYPE_REFUSAL = ["Erro", "Falha ao enviar imagem: Por favor selecione um arquivo de imagem"];
const IMAGE_SIZE_REFUSAL = ["Erro", "Falha ao enviar imagem: Imagem muito grande. Máximo 5MB"];
const MATERIAL_SIZE_REFUSAL = ["Erro no upload", "Arquivo muito grande (máximo 50MB)"];

describe("admin guards on every loader and action", () => {
  it("send anonymous visitors to /signin and learners home from the pages", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const pages = [
      () => moduleEdit.loader(args(request(`/courses/modules/${module.id}/edit`, { jar: learner }), ctx(), { moduleId: module.id })),
      () => lessonEdit.loader(args(request(`/courses/lessons/${lesson.id}/edit`, { jar: learner }), ctx(), { lessonId: lesson.id })),
      () => materialsRoute.loader(args(request(`/courses/lessons/${lesson.id}/materials`, { jar: learner }), ctx(), { lessonId: lesson.id })),
      () => bannerEdit.loader(args(request("/courses/banner/edit", { jar: learner }), ctx())),
    ];
    for (const page of pages) expect(await call(page)).toMatchObject({ status: 302, location: "/" });
    const anon = await call(() =>
      moduleEdit.loader(args(request(`/courses/modules/${module.id}/edit`, { jar: anonymous }), ctx(), { moduleId: module.id })),
    );
    expect(anon.status).toBe(302);
    expect(anon.location).toMatch(/^\/signin\?redirectTo=/);
  });

  it("answer 403 with a pt-BR message to a learner's posts and store nothing", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const png = { bytes: PNG, name: "capa.png", type: "image/png" };
    const posts = [
      () => editModule(module.id, { image_file: png }, { jar: learner }),
      () => editLesson(lesson.id, { thumbnail_file: png }, { jar: learner }),
      () => upload(lesson.id, { bytes: PDF, name: "a.pdf" }, { jar: learner }),
      () => editBanner({ title: "Hack", background_image_file: png }, { jar: learner }),
    ];
    for (const post of posts) expect(await post()).toMatchObject({ status: 403, data: { error: "Acesso restrito a administradores." } });
    expect(await bucket.keys()).toEqual([]);
    expect((await moduleRow(module.id)).title).toBe("Módulo de teste");
    expect((await lessonRow(lesson.id)).downloadableMaterials).toEqual([]);
  });

  it("follow the feature flag: Teacher FLIX off → 403 'feature disabled' for admins too", async () => {
    const module = await createModule();
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    try {
      const page = await call(() =>
        moduleEdit.loader(args(request(`/courses/modules/${module.id}/edit`, { jar: admin }), ctx(), { moduleId: module.id })),
      );
      expect(page).toMatchObject({ status: 403, data: { featureDisabled: true } });
      const post = await editModule(module.id);
      expect(post.status).toBe(403);
      const download = await call(() =>
        downloadRoute.loader(
          args(request(`/courses/lessons/x/materials/y/download`, { jar: learner }), ctx(), { lessonId: MISSING_ID, file: "y" }),
        ),
      );
      expect(download.status).toBe(403);
      expect((await moduleRow(module.id)).title).toBe("Módulo de teste");
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    }
  });
});

describe("module edit (/courses/modules/:id/edit)", () => {
  it("loads the module for the form; a missing one is a 404", async () => {
    const module = await createModule({ bannerTitle: "Meu banner" });
    const outcome = await call<{ module: { title: string; bannerTitle: string } }>(() =>
      moduleEdit.loader(args(request(`/courses/modules/${module.id}/edit`, { jar: admin }), ctx(), { moduleId: module.id })),
    );
    expect(outcome.status).toBe(200);
    expect(outcome.data.module).toMatchObject({ title: "Módulo de teste", bannerTitle: "Meu banner", available: "yes", orderIndex: 7 });
    for (const id of [MISSING_ID, "not-a-uuid"]) {
      const missing = await call(() => moduleEdit.loader(args(request(`/courses/modules/${id}/edit`, { jar: admin }), ctx(), { moduleId: id })));
      expect(missing.status).toBe(404);
    }
  });

  it("saves every field, stores the images under modules/ and banners/, and redirects with the success toast", async () => {
    const module = await createModule();
    const outcome = await editModule(module.id, {
      image_file: { bytes: PNG, name: "capa.png", type: "image/png" },
      banner_file: { bytes: PNG, name: "banner.jpg", type: "image/jpeg" }, // declared type is not trusted
    });
    await expectSaved(outcome, `/courses/modules/${module.id}`, "Módulo atualizado com sucesso");

    const saved = await moduleRow(module.id);
    expect(saved).toMatchObject({
      title: "Módulo editado",
      description: "Nova descrição",
      bannerTitle: "Banner editado",
      bannerSubtitle: "Subtítulo editado",
      available: "no",
      orderIndex: 3,
    });
    expect(saved.imageUrl).toMatch(/^\/media\/modules\/[0-9a-f-]{36}\.png$/);
    expect(saved.bannerUrl).toMatch(/^\/media\/banners\/[0-9a-f-]{36}\.png$/);
    const keys = await bucket.keys();
    expect(keys).toEqual([saved.bannerUrl!.slice(7), saved.imageUrl!.slice(7)].sort());
    const object = await bucket.bucket.get(saved.imageUrl!.slice(7));
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(PNG);
  });

  it("deletes the old object when an image is replaced or cleared, and keeps external URLs alone", async () => {
    const module = await createModule();
    const png = { bytes: PNG, name: "capa.png", type: "image/png" };
    await editModule(module.id, { image_file: png, banner_url: "https://cdn.example/b.jpg" });
    const first = (await moduleRow(module.id)).imageUrl!;
    expect(await bucket.keys()).toEqual([first.slice(7)]);

    await editModule(module.id, { image_url: first, image_file: png, banner_url: "https://cdn.example/b.jpg" });
    const second = await moduleRow(module.id);
    expect(second.imageUrl).not.toBe(first);
    expect(second.bannerUrl).toBe("https://cdn.example/b.jpg");
    expect(await bucket.keys()).toEqual([second.imageUrl!.slice(7)]);

    // keeping the URL keeps the object; clearing it deletes the object
    await editModule(module.id, { image_url: second.imageUrl! });
    expect(await bucket.keys()).toEqual([second.imageUrl!.slice(7)]);
    await editModule(module.id, { image_url: "" });
    expect((await moduleRow(module.id)).imageUrl).toBeNull();
    expect(await bucket.keys()).toEqual([]);
  });

  it("keeps the input and answers 400 with the spec's messages on validation errors", async () => {
    const module = await createModule();
    const outcome = await editModule(module.id, {
      title: "ab",
      order_index: "-1",
      description: "x".repeat(501),
      image_file: { bytes: PNG, name: "capa.png", type: "image/png" },
    });
    expect(outcome.status).toBe(400);
    expect(outcome.data.code).toBeNull();
    expect(outcome.data.result.error).toMatchObject({
      title: ["Mínimo 3 caracteres"],
      order_index: ["Number must be greater than or equal to 0"],
      description: ["String must contain at most 500 character(s)"],
    });
    expect(outcome.data.result.initialValue).toMatchObject({ title: "ab", banner_title: "Banner editado", available: "no" });
    expect((await moduleRow(module.id)).title).toBe("Módulo de teste");
    expect(await bucket.keys()).toEqual([]);
  });

  it("refuses a file that is not an image by its content, whatever its name and type say", async () => {
    const module = await createModule();
    const outcome = await editModule(module.id, { image_file: { bytes: FAKE_PNG, name: "foto.png", type: "image/png" } });
    expectRefusal(outcome, 400, "image_type", IMAGE_TYPE_REFUSAL);
    expect(outcome.data.result.error?.image_file).toEqual(["Por favor selecione um arquivo de imagem"]);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const svgOutcome = await editModule(module.id, { banner_file: { bytes: svg, name: "x.svg", type: "image/svg+xml" } });
    expect(svgOutcome.status).toBe(400);
    expect(await bucket.keys()).toEqual([]);
    expect((await moduleRow(module.id)).title).toBe("Módulo de teste");
  });

  it("refuses an image over 5 MB (413) before storing anything — counted while reading, and by Content-Length", async () => {
    const module = await createModule();
    const big = new Uint8Array(IMAGE_LIMIT + 1);
    big.set(PNG);
    const outcome = await editModule(module.id, { image_file: { bytes: big, name: "grande.png", type: "image/png" } });
    expectRefusal(outcome, 413, "image_too_large", IMAGE_SIZE_REFUSAL);
    expect(outcome.data.result.error?.image_file).toEqual(["Imagem muito grande. Máximo 5MB"]);

    // exactly 5 MB is fine
    const ok = await editModule(module.id, { image_file: { bytes: big.subarray(0, IMAGE_LIMIT), name: "limite.png", type: "image/png" } });
    expect(ok.status).toBe(302);
    await bucket.clear();

    // a declared body larger than two images + form is refused without reading it
    const declared = multipart(`/courses/modules/${module.id}/edit`, admin, moduleForm(), { "Content-Length": String(20 * 1024 * 1024) });
    const refused = await moduleAction(module.id, declared);
    expectRefusal(refused, 413, "image_too_large", IMAGE_SIZE_REFUSAL);
    expect(declared.bodyUsed).toBe(false);
    expect(await bucket.keys()).toEqual([]);
  });

  it("answers a broken body with 400 and the form's own message, through conform", async () => {
    const module = await createModule();
    const broken = new Request(`http://nika.test/courses/modules/${module.id}/edit`, {
      method: "POST",
      body: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nsem fim',
      headers: { Cookie: admin.header(), "Content-Type": "multipart/form-data; boundary=x" },
    });
    const outcome = await moduleAction(module.id, broken);
    expectRefusal(outcome, 400, "unreadable", ["Erro", "Falha ao atualizar módulo: Não foi possível ler o envio."]);
    expect(outcome.data.result.initialValue).toBeUndefined();
    expect((await moduleRow(module.id)).title).toBe("Módulo de teste");
  });

  it("removes the stored image again when the module is gone (404) or the save fails (500)", async () => {
    const png = { bytes: PNG, name: "capa.png", type: "image/png" };
    const gone = await editModule(MISSING_ID, { image_file: png });
    expectRefusal(gone, 404, "not_found", ["Erro", "Falha ao atualizar módulo: Módulo não encontrado"]);
    expect(await bucket.keys()).toEqual([]);

    const module = await createModule();
    const failed = await editModule(module.id, { image_file: png }, { context: failingContext() });
    expectRefusal(failed, 500, "save_failed", ["Erro", "Falha ao atualizar módulo: conexão perdida"]);
    expect(await bucket.keys()).toEqual([]);
  });
});

describe("lesson edit (/courses/lessons/:id/edit)", () => {
  it("loads the lesson with its module; 404 when missing", async () => {
    const module = await createModule({ title: "Módulo X" });
    const lesson = await createLesson(module.id, { iframe: '<iframe src="https://www.loom.com/embed/a"></iframe>' });
    const outcome = await call<{ lesson: Record<string, unknown> }>(() =>
      lessonEdit.loader(args(request(`/courses/lessons/${lesson.id}/edit`, { jar: admin }), ctx(), { lessonId: lesson.id })),
    );
    expect(outcome.data.lesson).toMatchObject({
      title: "Aula de teste",
      moduleTitle: "Módulo X",
      durationSeconds: 300,
      iframe: '<iframe src="https://www.loom.com/embed/a"></iframe>',
    });
    expect((await call(() => lessonEdit.loader(args(request("/x", { jar: admin }), ctx(), { lessonId: MISSING_ID })))).status).toBe(404);
  });

  it("saves the lesson with a thumbnail under thumbnails/ and the success toast", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const outcome = await editLesson(lesson.id, { thumbnail_file: { bytes: PNG, name: "thumb.png", type: "image/png" } });
    await expectSaved(outcome, `/courses/lessons/${lesson.id}`, "Aula atualizada com sucesso");
    const saved = await lessonRow(lesson.id);
    expect(saved).toMatchObject({
      title: "Aula editada",
      description: "Sobre a aula",
      videoUrl: "https://vimeo.com/76979871",
      iframe: null,
      durationSeconds: 600,
      orderIndex: 2,
    });
    expect(saved.thumbnailUrl).toMatch(/^\/media\/thumbnails\/[0-9a-f-]{36}\.png$/);
    expect(await bucket.keys()).toEqual([saved.thumbnailUrl!.slice(7)]);
  });

  it("accepts an allowed embed code alone", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const iframe = '<iframe src="https://player.vimeo.com/video/76979871" width="640"></iframe>';
    const outcome = await editLesson(lesson.id, { video_url: "", iframe });
    expect(outcome.status).toBe(302);
    expect(await lessonRow(lesson.id)).toMatchObject({ videoUrl: null, iframe });
  });

  it("refuses: no video, a foreign embed code, a long description, a non-image thumbnail — input kept, nothing stored", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const noVideo = await editLesson(lesson.id, { video_url: "" });
    expect(noVideo.status).toBe(400);
    expect(noVideo.data.code).toBeNull();
    expect(noVideo.data.result.error).toEqual({ video_url: ["Forneça uma URL de vídeo ou código iframe"] });
    expect(noVideo.data.result.initialValue).toMatchObject({ title: "Aula editada", description: "Sobre a aula" });

    const foreign = await editLesson(lesson.id, {
      video_url: "",
      iframe: '<iframe src="https://evil.example/x"></iframe><script>alert(1)</script>',
    });
    expect(foreign.data.result.error?.iframe).toEqual([
      "Código iframe não permitido: use um vídeo do YouTube, Vimeo ou outro provedor suportado.",
    ]);

    const long = await editLesson(lesson.id, { description: "x".repeat(1001) });
    expect(long.data.result.error).toEqual({ description: ["Máximo 1000 caracteres"] });

    const fake = await editLesson(lesson.id, { thumbnail_file: { bytes: FAKE_PNG, name: "thumb.png", type: "image/png" } });
    expectRefusal(fake, 400, "image_type", IMAGE_TYPE_REFUSAL);
    expect(fake.data.result.error).toEqual({ "": IMAGE_TYPE_REFUSAL, thumbnail_file: ["Por favor selecione um arquivo de imagem"] });

    expect(await bucket.keys()).toEqual([]);
    expect((await lessonRow(lesson.id)).title).toBe("Aula de teste");
  });

  it("answers 'Falha ao atualizar aula: …' when the lesson is gone", async () => {
    expectRefusal(await editLesson(MISSING_ID), 404, "not_found", ["Erro", "Falha ao atualizar aula: Aula não encontrada"]);
  });
});

describe("courses banner (/courses/banner/edit)", () => {
  it("loads the active banner and saves it with an image; one active banner per section", async () => {
    const loaded = await call<{ banner: { title: string; isActive: boolean } }>(() =>
      bannerEdit.loader(args(request("/courses/banner/edit", { jar: admin }), ctx())),
    );
    expect(loaded.data.banner).toMatchObject({ title: "Teacher FLIX", isActive: true });
    // a second, older active banner (legacy data) is switched off by the save
    await db.insert(siteBanners).values({ section: "courses", title: "Antigo", isActive: true, updatedAt: new Date("2020-01-01") });

    const outcome = await editBanner({
      title: "Novo banner",
      subtitle: "Linha 1 || Linha 2",
      background_image_url: "",
      background_image_file: { bytes: PNG, name: "fundo.png", type: "image/png" },
      background_gradient: "",
      is_active: "on",
    });
    await expectSaved(outcome, "/courses", "Banner atualizado com sucesso");
    const active = await db
      .select()
      .from(siteBanners)
      .where(sql`${siteBanners.section} = 'courses' and ${siteBanners.isActive}`);
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ title: "Novo banner", subtitle: "Linha 1 || Linha 2", backgroundGradient: null });
    expect(active[0]!.backgroundImageUrl).toMatch(/^\/media\/banners\/.+\.png$/);
    expect(await bucket.keys()).toEqual([active[0]!.backgroundImageUrl!.slice(7)]);
  });

  it("refuses unsafe gradients and non-images", async () => {
    const outcome = await editBanner({
      title: "X",
      background_gradient: "linear-gradient(red, blue), url(https://evil.example/t.png)",
      background_image_file: { bytes: FAKE_PNG, name: "a.png", type: "image/png" },
    });
    expectRefusal(outcome, 400, "image_type", IMAGE_TYPE_REFUSAL);
    expect(Object.keys(outcome.data.result.error!).sort()).toEqual(["", "background_gradient", "background_image_file"]);
    expect(await bucket.keys()).toEqual([]);
  });
});

describe("materials (/courses/lessons/:id/materials) and downloads", () => {
  it("uploads one file: stored at lesson-materials/{lessonId}/{timestamp}_{safeName}, listed, downloadable as an attachment", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const before = Date.now();
    const outcome = await upload(lesson.id, { bytes: PDF, name: "Apostila – Aula 1.pdf", type: "application/pdf" });
    expect(outcome).toMatchObject({ status: 302, location: `/courses/lessons/${lesson.id}/materials#painel-admin` });
    expect(await toastOf(outcome)).toEqual({ type: "success", title: "Upload concluído!", description: "Arquivo disponível para estudantes." });

    const [key] = await bucket.keys();
    expect(key).toMatch(new RegExp(`^lesson-materials/${lesson.id}/(\\d+)_Apostila___Aula_1\\.pdf$`));
    expect(Number(/\/(\d+)_/.exec(key!)![1])).toBeGreaterThanOrEqual(before);
    const materials = (await lessonRow(lesson.id)).downloadableMaterials;
    expect(materials).toEqual([
      { title: "Apostila – Aula 1", type: "PDF", size: "598 B", url: `/media/${key}`, uploadedAt: expect.any(String) },
    ]);

    // the learner downloads it through the app
    const file = key!.split("/").pop()!;
    const download = await downloadRoute.loader(
      args(request(`/courses/lessons/${lesson.id}/materials/${file}/download`, { jar: learner }), ctx(), { lessonId: lesson.id, file }),
    );
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    expect(download.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Apostila _ Aula 1.pdf"; filename*=UTF-8''Apostila%20%E2%80%93%20Aula%201.pdf`,
    );
    expect(download.headers.get("Content-Length")).toBe(String(PDF.length));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF);

    // /media/<material key> never serves it inline: it sends to the download route
    const viaMedia = await media.loader(args(request(`/media/${key}`), ctx(), { "*": key! }));
    expect(viaMedia.status).toBe(302);
    expect(viaMedia.headers.get("Location")).toBe(`/courses/lessons/${lesson.id}/materials/${file}/download`);
  });

  it("appends atomically: parallel uploads all end up in the list", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const names = ["a.pdf", "b.docx", "c.zip", "LEIAME"];
    const outcomes = await Promise.all(names.map((name) => upload(lesson.id, { bytes: PDF, name })));
    expect(outcomes.map((o) => o.status)).toEqual([302, 302, 302, 302]);
    const materials = (await lessonRow(lesson.id)).downloadableMaterials;
    expect(materials.map((m) => `${m.title}:${m.type}`).sort()).toEqual(["LEIAME:FILE", "a:PDF", "b:DOCX", "c:ZIP"]);
    expect(await bucket.keys()).toHaveLength(4);
  });

  it("refuses a file over 50 MB (52 428 800 bytes) with 413 and stores nothing", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const outcome = await upload(lesson.id, { bytes: new Uint8Array(MATERIAL_LIMIT + 1), name: "grande.zip" });
    expectRefusal(outcome, 413, "file_too_large", MATERIAL_SIZE_REFUSAL);
    expect(await bucket.keys()).toEqual([]);
    expect((await lessonRow(lesson.id)).downloadableMaterials).toEqual([]);

    const declared = multipart(
      `/courses/lessons/${lesson.id}/materials`,
      admin,
      { intent: "upload", file: { bytes: PDF, name: "a.pdf" } },
      { "Content-Length": String(60 * 1024 * 1024) },
    );
    const refused = await materialsAction(lesson.id, declared);
    expectRefusal(refused, 413, "file_too_large", MATERIAL_SIZE_REFUSAL);
    expect(declared.bodyUsed).toBe(false);
    expect(await bucket.keys()).toEqual([]);
  }, 60_000);

  it("removes the stored file when saving the list fails, and says so", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    const outcome = await upload(lesson.id, { bytes: PDF, name: "a.pdf" }, { context: failingContext() });
    expectRefusal(outcome, 500, "save_failed", ["Erro no upload", "Falha ao salvar informações do arquivo: conexão perdida"]);
    expect(await bucket.keys()).toEqual([]);
  });

  it("needs a file and an existing lesson", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    expectRefusal(await upload(lesson.id, NO_FILE), 400, "no_file", ["Erro no upload", "Selecione um arquivo para enviar"]);
    expectRefusal(await upload(MISSING_ID, { bytes: PDF, name: "a.pdf" }), 404, "not_found", ["Erro no upload", "Aula não encontrada"]);
    expect(await bucket.keys()).toEqual([]);
  });

  it("removal asks first (no JS), then deletes the entry and the object", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    await upload(lesson.id, { bytes: PDF, name: "a.pdf" });
    await upload(lesson.id, { bytes: PDF, name: "b.pdf" });
    const [first, second] = (await lessonRow(lesson.id)).downloadableMaterials as [DownloadableMaterial, DownloadableMaterial];
    const path = `/courses/lessons/${lesson.id}/materials`;
    const file = first.url.split("/").pop()!;

    const ask = await removeMaterial(lesson.id, { intent: "remove", url: first.url, file, redirectTo: `/courses/lessons/${lesson.id}` });
    expect(ask).toMatchObject({ status: 302, location: `${path}?remover=${encodeURIComponent(file)}#painel-admin` });
    const page = await call<{ confirm: DownloadableMaterial | null }>(() =>
      materialsRoute.loader(args(request(`${path}?remover=${file}`, { jar: admin }), ctx(), { lessonId: lesson.id })),
    );
    expect(page.data.confirm).toEqual(first);
    expect(await bucket.keys()).toHaveLength(2);

    const removed = await removeMaterial(lesson.id, {
      intent: "remove",
      url: first.url,
      confirmed: "yes",
      redirectTo: `/courses/lessons/${lesson.id}`,
    });
    expect(removed).toMatchObject({ status: 302, location: `/courses/lessons/${lesson.id}` });
    expect(await toastOf(removed)).toEqual({ type: "success", title: "Arquivo removido" });
    expect((await lessonRow(lesson.id)).downloadableMaterials).toEqual([second]);
    expect(await bucket.keys()).toEqual([second.url.slice(7)]);

    // the download of the removed file fails: a 404 for scripts, the lesson with a toast for a click
    const gone = await downloadRoute.loader(args(request(`/x`, { jar: learner }), ctx(), { lessonId: lesson.id, file }));
    expect(gone.status).toBe(404);
    const click = new Request("http://nika.test/x", { headers: { Cookie: learner.header(), "Sec-Fetch-Mode": "navigate" } });
    const back = await call(() => downloadRoute.loader(args(click, ctx(), { lessonId: lesson.id, file })));
    expect(back).toMatchObject({ status: 302, location: `/courses/lessons/${lesson.id}` });
    expect(await toastOf(back)).toEqual({ type: "error", title: "Erro ao baixar arquivo" });
  });

  it("answers 'URL inválida' for an entry outside our storage and keeps it; learners cannot remove", async () => {
    const module = await createModule();
    const external: DownloadableMaterial = {
      title: "antigo",
      type: "PDF",
      size: "1.0 KB",
      url: "https://old.example/storage/v1/object/public/x.pdf",
      uploadedAt: new Date().toISOString(),
    };
    const lesson = await createLesson(module.id, { downloadableMaterials: [external] });
    const confirmed = { intent: "remove", url: external.url, confirmed: "yes" };
    const invalid = await removeMaterial(lesson.id, confirmed);
    expect(await toastOf(invalid)).toEqual({ type: "error", title: "Erro ao remover arquivo", description: "URL inválida" });
    expect((await lessonRow(lesson.id)).downloadableMaterials).toEqual([external]);

    const forbidden = await removeMaterial(lesson.id, confirmed, learner);
    expect(forbidden.status).toBe(403);
    expect((await lessonRow(lesson.id)).downloadableMaterials).toEqual([external]);
  });

  it("answers an unknown intent with 400 'Ação desconhecida', through conform", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id);
    expectRefusal(await removeMaterial(lesson.id, { intent: "rename", url: "x" }), 400, "unknown_intent", ["Erro", "Ação desconhecida"]);
  });

  it("loads the materials page for admins; 404 for a missing lesson", async () => {
    const module = await createModule();
    const lesson = await createLesson(module.id, { title: "Com materiais" });
    const page = await call<{ lesson: { title: string; materials: unknown[] }; confirm: null }>(() =>
      materialsRoute.loader(args(request(`/courses/lessons/${lesson.id}/materials`, { jar: admin }), ctx(), { lessonId: lesson.id })),
    );
    expect(page.data).toMatchObject({ lesson: { title: "Com materiais", materials: [] }, confirm: null });
    expect((await call(() => materialsRoute.loader(args(request("/x", { jar: admin }), ctx(), { lessonId: MISSING_ID })))).status).toBe(404);
  });
});

describe("media route (/media/<key>)", () => {
  it("serves images with their type, an ETag and a long public cache; 304 on a match; 404 otherwise", async () => {
    await bucket.bucket.put("modules/x.png", PNG, { httpMetadata: { contentType: "image/png" } });
    const response = await media.loader(args(request("/media/modules/x.png"), ctx(), { "*": "modules/x.png" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const etag = response.headers.get("ETag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);

    const cached = new Request("http://nika.test/media/modules/x.png", { headers: { "If-None-Match": etag } });
    const notModified = await media.loader(args(cached, ctx(), { "*": "modules/x.png" }));
    expect(notModified.status).toBe(304);

    for (const key of ["modules/missing.png", "../etc/passwd", "secrets/x", ""]) {
      const missing = await media.loader(args(request(`/media/${key}`), ctx(), { "*": key }));
      expect(missing.status).toBe(404);
    }
  });

  it("never serves a stored non-image inline", async () => {
    await bucket.bucket.put("banners/evil.png", "<script>alert(1)</script>", { httpMetadata: { contentType: "text/html" } });
    const response = await media.loader(args(request("/media/banners/evil.png"), ctx(), { "*": "banners/evil.png" }));
    expect(response.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(response.headers.get("Content-Disposition")).toBe("attachment");
    expect(response.headers.get("Content-Security-Policy")).toContain("sandbox");
  });
});
