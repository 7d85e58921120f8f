// Lesson-material rules a broken line must not get past (issue 8, item 11 — found by mutation
// testing): the 50 MB limit accepts exactly 50 MB, only the `file` field's first non-empty file is
// stored, removal only touches this lesson's own entries, and downloads serve listed files only.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findMaterialKey, removeMaterial, uploadMaterial } from "~/features/courses/materials.server";
import { lessons, modules, type DownloadableMaterial } from "~/features/courses/tables";
import * as downloadRoute from "~/routes/_app+/courses+/lessons.$lessonId.materials.$file.download";
import { createSession } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { FORM_OVERHEAD_BYTES } from "~/server/request.server";
import { users } from "~/server/schema";
import { MATERIAL_MAX_BYTES } from "~/server/storage.server";
import { args, contextFor, createTestBucket, createTestDb, request } from "./harness";

let db: Database;
let media: Awaited<ReturnType<typeof createTestBucket>>;
let learnerCookie: string;
let n = 0;
beforeAll(async () => {
  ({ db } = await createTestDb());
  media = await createTestBucket();
  const [learner] = await db.insert(users).values({ name: "Aluna", email: "aluna-materiais@example.com", creditsPeriod: "2999-12" }).returning();
  learnerCookie = (await createSession(contextFor(db), learner!.id, request("/"))).split(";")[0]!;
});
afterAll(() => media?.dispose());
afterEach(() => media.clear());

const ctx = () => contextFor(db, { MEDIA: media.bucket });
async function newLesson(materials: DownloadableMaterial[] = []) {
  const [mod] = await db
    .insert(modules)
    .values({ title: `Módulo ${++n}`, orderIndex: 100 + n })
    .returning();
  const [lesson] = await db
    .insert(lessons)
    .values({ moduleId: mod!.id, title: `Aula ${n}`, downloadableMaterials: materials })
    .returning();
  return lesson!;
}
const listed = async (lessonId: string) => (await db.select().from(lessons).where(eq(lessons.id, lessonId)))[0]!.downloadableMaterials;
function uploadRequest(lessonId: string, fields: [string, string | File][]) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return new Request(`http://nika.test/courses/lessons/${lessonId}/materials`, { method: "POST", body: form });
}
const file = (size: number, name: string, type = "application/pdf") => new File([new Uint8Array(size).fill(37)], name, { type });

describe("uploading a material", () => {
  it("accepts a file of exactly 50 MB (52 428 800 bytes)", async () => {
    const lesson = await newLesson();
    const outcome = await uploadMaterial(
      ctx(),
      uploadRequest(lesson.id, [
        ["intent", "upload"],
        ["file", file(MATERIAL_MAX_BYTES, "completo.zip", "application/zip")],
      ]),
      lesson.id,
    );
    expect(outcome).toMatchObject({ status: "ok", item: { title: "completo", type: "ZIP", size: "50.0 MB" } });
    const [key] = await media.keys();
    expect((await media.bucket.head(key!))!.size).toBe(MATERIAL_MAX_BYTES);
  }, 180_000);

  it("refuses a `file` field sent more than once (the input takes one file): nothing stored, nothing listed", async () => {
    const lesson = await newLesson();
    const outcome = await uploadMaterial(
      ctx(),
      uploadRequest(lesson.id, [
        ["other", file(10, "outro.pdf")],
        ["file", file(0, "vazio.pdf")],
        ["file", file(20, "primeiro.pdf")],
        ["file", file(30, "segundo.pdf")],
      ]),
      lesson.id,
    );
    expect(outcome).toEqual({ status: "unreadable", message: "Campo repetido no envio." });
    expect(await media.keys()).toEqual([]);
    expect(await listed(lesson.id)).toEqual([]);
  });

  it("an empty file, or none in the `file` field, is no material and stores nothing", async () => {
    const lesson = await newLesson();
    expect(await uploadMaterial(ctx(), uploadRequest(lesson.id, [["file", file(0, "vazio.pdf")]]), lesson.id)).toEqual({ status: "no_file" });
    expect(await uploadMaterial(ctx(), uploadRequest(lesson.id, [["arquivo", file(10, "a.pdf")]]), lesson.id)).toEqual({ status: "no_file" });
    expect(await media.keys()).toEqual([]);
    expect(await listed(lesson.id)).toEqual([]);
  });

  it("keys the object by the upload time and the lesson", async () => {
    const lesson = await newLesson();
    const now = new Date("2026-07-01T10:00:00.000Z");
    const outcome = await uploadMaterial(ctx(), uploadRequest(lesson.id, [["file", file(5, "Aula 3 (final).pdf")]]), lesson.id, now);
    expect(outcome).toMatchObject({
      status: "ok",
      item: { url: `/media/lesson-materials/${lesson.id}/${now.getTime()}_Aula_3__final_.pdf`, uploadedAt: now.toISOString() },
    });
  });
});

describe("removing a material", () => {
  async function lessonWithUpload() {
    const lesson = await newLesson();
    const outcome = await uploadMaterial(ctx(), uploadRequest(lesson.id, [["file", file(12, "guia.pdf")]]), lesson.id);
    return { lesson, item: (outcome as { item: DownloadableMaterial }).item };
  }

  it("refuses a URL of another lesson's material and leaves both alone", async () => {
    const a = await lessonWithUpload();
    const b = await lessonWithUpload();
    expect(await removeMaterial(ctx(), a.lesson.id, b.item.url)).toEqual({ status: "invalid_url" });
    expect(await listed(b.lesson.id)).toEqual([b.item]);
    expect(await media.keys()).toHaveLength(2);
  });

  it("answers not_found for one of our URLs that is not on the list, deleting nothing", async () => {
    const a = await lessonWithUpload();
    const unlisted = `/media/lesson-materials/${a.lesson.id}/1_nao-listado.pdf`;
    await media.bucket.put(unlisted.slice("/media/".length), "x");
    expect(await removeMaterial(ctx(), a.lesson.id, unlisted)).toEqual({ status: "not_found" });
    expect(await media.keys()).toHaveLength(2);
    expect(await removeMaterial(ctx(), a.lesson.id, a.item.url)).toEqual({ status: "ok" });
    expect(await listed(a.lesson.id)).toEqual([]);
    expect(await media.keys()).toEqual([unlisted.slice("/media/".length)]);
  });
});

describe("downloading a material", () => {
  const download = (lessonId: string, fileId: string) =>
    downloadRoute.loader(
      args(
        new Request(`http://nika.test/courses/lessons/${lessonId}/materials/${fileId}/download`, { headers: { Cookie: learnerCookie } }),
        ctx(),
        { lessonId, file: fileId },
      ),
    );

  it("serves only files listed on the lesson, even when another object exists under its folder", async () => {
    const lesson = await newLesson();
    await uploadMaterial(ctx(), uploadRequest(lesson.id, [["file", file(8, "listado.pdf")]]), lesson.id);
    const [key] = await media.keys();
    await media.bucket.put(`lesson-materials/${lesson.id}/2_escondido.pdf`, "segredo");
    const other = await newLesson();
    const served = await download(lesson.id, key!.split("/").pop()!);
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBe(8);
    expect((await download(lesson.id, "2_escondido.pdf")).status).toBe(404);
    // the listed file, asked for through another lesson
    expect((await download(other.id, key!.split("/").pop()!)).status).toBe(404);
  });
});

// ——— refusals and failures of an upload, removal failures (found by mutation testing) ———

/** The test bucket with `put` (a small file's one write) replaced. */
function bucketWith(put: (...a: Parameters<R2Bucket["put"]>) => Promise<R2Object | null>) {
  return new Proxy(media.bucket, {
    get: (target, name) => (name === "put" ? put : Reflect.get(target, name, target)),
  }) as R2Bucket;
}
const OK_FILE: [string, File][] = [["file", file(10, "guia.pdf")]];

describe("upload refusals", () => {
  it("a path id that is no lesson's is not_found before the body is read", async () => {
    for (const lessonId of ["nao-e-uma-aula", randomUUID()]) {
      const req = uploadRequest(lessonId, OK_FILE);
      expect(await uploadMaterial(ctx(), req, lessonId)).toEqual({ status: "not_found" });
      expect(req.bodyUsed).toBe(false);
    }
    expect(await media.keys()).toEqual([]);
  });

  it("a body declaring more than 50 MB plus the form's room is too_large before reading; exactly that is read", async () => {
    const lesson = await newLesson();
    const declaring = (length: number) => {
      const req = uploadRequest(lesson.id, OK_FILE);
      return new Request(req, { headers: { "Content-Type": req.headers.get("Content-Type")!, "Content-Length": String(length) } });
    };
    const over = declaring(MATERIAL_MAX_BYTES + FORM_OVERHEAD_BYTES + 1);
    expect(await uploadMaterial(ctx(), over, lesson.id)).toEqual({ status: "too_large" });
    expect(over.bodyUsed).toBe(false);
    expect(await uploadMaterial(ctx(), declaring(MATERIAL_MAX_BYTES + FORM_OVERHEAD_BYTES), lesson.id)).toMatchObject({ status: "ok" });
  });

  it("a file of 50 MB + 1 byte is too_large: nothing stored, nothing listed", async () => {
    const lesson = await newLesson();
    const outcome = await uploadMaterial(
      ctx(),
      uploadRequest(lesson.id, [["file", file(MATERIAL_MAX_BYTES + 1, "grande.zip", "application/zip")]]),
      lesson.id,
    );
    expect(outcome).toEqual({ status: "too_large" });
    expect(await media.keys()).toEqual([]);
    expect(await listed(lesson.id)).toEqual([]);
  }, 180_000);

  it("a body that is not a form is refused as it is (415); a broken form is unreadable", async () => {
    const lesson = await newLesson();
    const json = new Request("http://nika.test/x", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
    const refused = await uploadMaterial(ctx(), json, lesson.id).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(415);
    const unreadable = { status: "unreadable", message: "Não foi possível ler o arquivo enviado." };
    const noBoundary = new Request("http://nika.test/x", { method: "POST", body: "x", headers: { "Content-Type": "multipart/form-data" } });
    expect(await uploadMaterial(ctx(), noBoundary, lesson.id)).toEqual(unreadable);
    const broken = new Request("http://nika.test/x", {
      method: "POST",
      body: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nsem fim',
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
    });
    expect(await uploadMaterial(ctx(), broken, lesson.id)).toEqual(unreadable);
    expect(await listed(lesson.id)).toEqual([]);
  });

  it("a file already stored when the rest of the body breaks is deleted again", async () => {
    const lesson = await newLesson();
    const body =
      '--b\r\nContent-Disposition: form-data; name="file"; filename="guia.pdf"\r\nContent-Type: application/pdf\r\n\r\n0123456789\r\n' +
      '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nsem fim';
    const req = new Request("http://nika.test/x", { method: "POST", body, headers: { "Content-Type": "multipart/form-data; boundary=b" } });
    const puts: string[] = [];
    const watched = bucketWith((...a) => (puts.push(a[0]), media.bucket.put(...a)));
    expect(await uploadMaterial(contextFor(db, { MEDIA: watched }), req, lesson.id)).toEqual({
      status: "unreadable",
      message: "Não foi possível ler o arquivo enviado.",
    });
    expect(puts).toHaveLength(1);
    expect(await media.keys()).toEqual([]);
    expect(await listed(lesson.id)).toEqual([]);
  });

  it("a file field sent twice is refused once the body is read, and the file already stored is deleted again", async () => {
    const lesson = await newLesson();
    const part =
      '--b\r\nContent-Disposition: form-data; name="file"; filename="guia.pdf"\r\nContent-Type: application/pdf\r\n\r\n0123456789\r\n';
    const req = new Request("http://nika.test/x", {
      method: "POST",
      body: `${part}${part}--b--\r\n`,
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
    });
    const puts: string[] = [];
    const watched = bucketWith((...a) => (puts.push(a[0]), media.bucket.put(...a)));
    expect(await uploadMaterial(contextFor(db, { MEDIA: watched }), req, lesson.id)).toEqual({
      status: "unreadable",
      message: "Campo repetido no envio.",
    });
    expect(puts).toHaveLength(1);
    expect(await media.keys()).toEqual([]);
    expect(await listed(lesson.id)).toEqual([]);
  });

  it("a storage failure is storage_failed with its message, and lists nothing", async () => {
    const lesson = await newLesson();
    const failing = bucketWith(() => Promise.reject(new Error("R2 fora do ar")));
    const outcome = await uploadMaterial(contextFor(db, { MEDIA: failing }), uploadRequest(lesson.id, OK_FILE), lesson.id);
    expect(outcome).toEqual({ status: "storage_failed", message: "R2 fora do ar" });
    expect(await listed(lesson.id)).toEqual([]);
  });

  it("a lesson deleted while its file was being stored is save_failed, and the object is deleted", async () => {
    const lesson = await newLesson();
    const deletingLesson = bucketWith(async (...a) => {
      await db.delete(lessons).where(eq(lessons.id, lesson.id));
      return media.bucket.put(...a);
    });
    const outcome = await uploadMaterial(contextFor(db, { MEDIA: deletingLesson }), uploadRequest(lesson.id, OK_FILE), lesson.id);
    expect(outcome).toEqual({ status: "save_failed", message: "Aula não encontrada" });
    expect(await media.keys()).toEqual([]);
  });
});

describe("removal refusals", () => {
  it("a URL that is not one of our media paths is invalid_url", async () => {
    const lesson = await newLesson([
      { title: "x", type: "PDF", size: "1 B", url: "https://outro.example/x.pdf", uploadedAt: new Date().toISOString() },
    ]);
    expect(await removeMaterial(ctx(), lesson.id, "https://outro.example/x.pdf")).toEqual({ status: "invalid_url" });
    expect(await removeMaterial(ctx(), lesson.id, "")).toEqual({ status: "invalid_url" });
    expect(await listed(lesson.id)).toHaveLength(1);
  });

  it("a database failure is reported as failed and deletes no object", async () => {
    const key = "lesson-materials/nao-uuid/1_guia.pdf";
    await media.bucket.put(key, "x");
    const outcome = await removeMaterial(ctx(), "nao-uuid", `/media/${key}`);
    expect(outcome.status).toBe("failed");
    expect((outcome as { message: string }).message).toMatch(/uuid/i);
    expect(await media.keys()).toEqual([key]);
  });
});

describe("finding a material to download", () => {
  it("finds any of the lesson's listed files, and none of a lesson that does not exist", async () => {
    const lesson = await newLesson();
    for (const name of ["primeiro.pdf", "segundo.pdf"]) {
      await uploadMaterial(ctx(), uploadRequest(lesson.id, [["file", file(5, name)]]), lesson.id);
    }
    const keys = await media.keys();
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(await findMaterialKey(ctx(), lesson.id, key.split("/").pop()!)).toBe(key);
    expect(await findMaterialKey(ctx(), randomUUID(), keys[0]!.split("/").pop()!)).toBeNull();
  });
});
