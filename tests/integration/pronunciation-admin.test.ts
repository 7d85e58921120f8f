// Pronunciation game, admin side (issue 10, "Content"): the levels' list and a level's form — sentence,
// translation and the reference recording (an upload to R2 that wins over the shipped one, replaced or
// taken back) — against PGlite with the real migrations and a real R2 (Miniflare). Each test writes the
// levels it works on itself (an upsert), so it does not depend on the seeded sentences.
import { readFileSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hasShippedLevel, levelAudioUrl } from "~/features/pronunciation/content.server";
import { pronunciationLevels } from "~/features/pronunciation/tables";
import * as editRoute from "~/routes/_app+/_labs+/pronunciation-game_.admin.$level";
import * as listRoute from "~/routes/_app+/_labs+/pronunciation-game_.admin._index";
import * as media from "~/routes/media.$";
import { appConfig } from "~/server/schema";
import {
  args,
  call,
  createAdminWorld,
  multipart,
  NO_FILE,
  request,
  toastOf,
  type AdminWorld,
  type Part,
  expectRefusal,
  type AdminReply,
} from "./harness";

const MP3 = new Uint8Array(readFileSync("content/flashcards/audio/animais-dog.mp3"));
const PNG = new Uint8Array(readFileSync("tests/fixtures/tiny.png"));
const AUDIO_LIMIT = 2_097_152;
const LIST = "/pronunciation-game/admin";

/** A short 16 kHz mono 16-bit WAV (what the chat's recorder makes). */
function wav(samples = 1600): Uint8Array {
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => [...value].forEach((char, i) => view.setUint8(offset + i, char.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 16_000, true);
  view.setUint32(28, 32_000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(8000 * Math.sin(i / 8)), true);
  return bytes;
}

let { db, bucket, ctx, admin, learner, anonymous } = {} as AdminWorld;
beforeAll(async () => ({ db, bucket, ctx, admin, learner, anonymous } = await createAdminWorld(50)));
afterAll(() => bucket?.dispose());
beforeEach(() => bucket.clear());

// ——— arrangement ———

const shippedAsset = (level: number) => `level-${String(level).padStart(3, "0")}`;

/** Level `level` as this test wants it: a known sentence and translation, the shipped recording, no upload. */
async function arrangeLevel(level: number, values: Partial<typeof pronunciationLevels.$inferInsert> = {}) {
  const row = {
    level,
    band: Math.ceil(level / 10),
    sentence: "The cat sat on the mat.",
    translation: "O gato sentou no tapete.",
    audioAsset: shippedAsset(level),
    audioKey: null,
    ...values,
  };
  await db
    .insert(pronunciationLevels)
    .values(row)
    .onConflictDoUpdate({
      target: pronunciationLevels.level,
      set: { band: row.band, sentence: row.sentence, translation: row.translation, audioAsset: row.audioAsset, audioKey: row.audioKey },
    });
  return level;
}

const levelRow = async (level: number) => (await db.select().from(pronunciationLevels).where(eq(pronunciationLevels.level, level)))[0]!;
const snapshot = () => db.select().from(pronunciationLevels).orderBy(asc(pronunciationLevels.level));

// ——— requests ———

const mp3 = (bytes = MP3): Part => ({ bytes, name: "voz.mp3", type: "audio/mpeg" });
const levelForm = (values: Record<string, Part> = {}): Record<string, Part> => ({
  sentence: "The cat sat on the mat.",
  translation: "O gato sentou no tapete.",
  audio_file: NO_FILE,
  ...values,
});

type Reply = AdminReply;
type PostOptions = { jar?: AdminWorld["admin"]; context?: AppLoadContext };

const editPath = (level: number | string) => `${LIST}/${level}`;
const editRequest = (level: number | string, req: Request, context = ctx()) =>
  call<Reply>(() => editRoute.action(args(req, context, { level: String(level) })));
const editLevel = (level: number | string, values: Record<string, Part> = {}, { jar = admin, context = ctx() }: PostOptions = {}) =>
  editRequest(level, multipart(editPath(level), jar, levelForm(values)), context);
const openEdit = (level: number | string, jar = admin) =>
  call<{ level: Record<string, unknown>; list: unknown }>(() =>
    editRoute.loader(args(request(editPath(level), { jar }), ctx(), { level: String(level) })),
  );
const openList = (jar = admin) => call<{ list: ListData }>(() => listRoute.loader(args(request(LIST, { jar }), ctx())));

type ListData = {
  count: number;
  bands: {
    band: number;
    title: string;
    sound: string;
    levels: { level: number; sentence: string; translation: string; audioSource: string; audioUrl: string | null }[];
  }[];
};

const mediaGet = (key: string, headers: Record<string, string> = {}) =>
  media.loader(args(new Request(`http://nika.test/media/${key}`, { headers }), ctx(), { "*": key }));

// ——— guards ———

describe("admin guards", () => {
  it("send learners home and anonymous visitors to /signin from both pages", async () => {
    await arrangeLevel(1);
    expect(await openList(learner)).toMatchObject({ status: 302, location: "/" });
    expect(await openEdit(1, learner)).toMatchObject({ status: 302, location: "/" });
    for (const outcome of [await openList(anonymous), await openEdit(1, anonymous)]) {
      expect(outcome.status).toBe(302);
      expect(outcome.location).toMatch(/^\/signin\?redirectTo=%2Fpronunciation-game%2Fadmin/);
    }
  });

  it("answer 403 to a learner's save and 'sign in' to an anonymous one, changing nothing (database or storage)", async () => {
    await arrangeLevel(2);
    const before = await snapshot();
    const refused = await editLevel(2, { sentence: "Hacked sentence.", audio_file: mp3() }, { jar: learner });
    expect(refused).toMatchObject({ status: 403, data: { error: "Acesso restrito a administradores." } });
    const anon = await editLevel(2, { sentence: "Hacked sentence.", audio_file: mp3() }, { jar: anonymous });
    expect(anon.status).toBe(302);
    expect(anon.location).toMatch(/^\/signin\?redirectTo=/);
    expect(await snapshot()).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
  });

  it("follow the flag: the game off → 403 'feature disabled' for admins too, nothing saved", async () => {
    await arrangeLevel(3);
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_pronunciation"));
    try {
      expect(await openList()).toMatchObject({ status: 403, data: { featureDisabled: true } });
      expect((await openEdit(3)).status).toBe(403);
      expect((await editLevel(3, { sentence: "Flag is off." })).status).toBe(403);
      expect((await levelRow(3)).sentence).toBe("The cat sat on the mat.");
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_pronunciation"));
    }
  });

  it("answer 404 to any level but 1–100, before anything else (even anonymous or a learner)", async () => {
    await arrangeLevel(4);
    const before = await snapshot();
    for (const level of ["0", "101", "abc", "01", "1.5", "-1", "1e2", " 4", "4 ", "999999999999"]) {
      for (const jar of [admin, learner, anonymous]) {
        expect((await openEdit(level, jar)).status, `GET ${level}`).toBe(404);
        expect((await editLevel(level, { sentence: "Not a level.", audio_file: mp3() }, { jar })).status, `POST ${level}`).toBe(404);
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
  });

  it("answer 404 to a level in range whose row is missing, and keep no upload", async () => {
    await arrangeLevel(99);
    const row = await levelRow(99);
    await db.delete(pronunciationLevels).where(eq(pronunciationLevels.level, 99));
    try {
      expect((await openEdit(99)).status).toBe(404);
      expectRefusal(await editLevel(99, { audio_file: mp3() }), 404, "not_found", ["Erro", "Falha ao salvar nível: Nível não encontrado"]);
      expect(await bucket.keys()).toEqual([]);
    } finally {
      await db.insert(pronunciationLevels).values(row);
    }
  });
});

// ——— pages ———

describe("the pages", () => {
  it("list the levels in order, grouped by band, with sentence, translation and where the audio comes from", async () => {
    await arrangeLevel(11, { sentence: "Big dog.", translation: "Cachorro grande." });
    await arrangeLevel(12, {
      sentence: "Red bed.",
      translation: "Cama vermelha.",
      audioKey: "pronunciation/00000000-0000-4000-8000-000000000012.mp3",
    });
    const outcome = await openList();
    expect(outcome.status).toBe(200);
    const { bands, count } = outcome.data.list;
    const levels = bands.flatMap((band) => band.levels);
    expect(levels.map((level) => level.level)).toEqual([...levels.map((level) => level.level)].sort((a, b) => a - b));
    expect(count).toBe(levels.length);
    expect(bands.map((band) => band.band)).toEqual([...new Set(bands.map((band) => band.band))]); // one group per band
    for (const band of bands) expect(band).toMatchObject({ title: expect.any(String), sound: expect.any(String) });
    const band2 = bands.find((band) => band.band === 2)!;
    expect(band2.levels.find((level) => level.level === 11)).toMatchObject({
      sentence: "Big dog.",
      translation: "Cachorro grande.",
      audioSource: "shipped",
    });
    expect(band2.levels.find((level) => level.level === 12)).toMatchObject({
      audioSource: "upload",
      audioUrl: "/media/pronunciation/00000000-0000-4000-8000-000000000012.mp3",
    });
  });

  it("open a level's form with its values, its band and the list under it", async () => {
    await arrangeLevel(13, { sentence: "He has a red hat.", translation: "Ele tem um chapéu vermelho." });
    const outcome = await openEdit(13);
    expect(outcome.status).toBe(200);
    expect(outcome.data.level).toMatchObject({
      level: 13,
      band: 2,
      sentence: "He has a red hat.",
      translation: "Ele tem um chapéu vermelho.",
      audioSource: "shipped",
      hasAudioUpload: false,
      canRestoreAudio: false,
      bandInfo: { band: 2, title: expect.any(String) },
    });
    expect(outcome.data.list).toMatchObject({ count: expect.any(Number) });
  });
});

// ——— saving ———

describe("saving a level (/pronunciation-game/admin/:level)", () => {
  it("saves the sentence (trimmed, spaces made one) and translation; back to the list at the level with a toast", async () => {
    await arrangeLevel(21);
    const outcome = await editLevel(21, { sentence: "  Big   dog, big cat!  ", translation: " Cachorro grande, gato grande! " });
    expect(outcome).toMatchObject({ status: 302, location: `${LIST}#nivel-21` });
    expect(await toastOf(outcome)).toEqual({
      type: "success",
      title: "Nível salvo",
      description: "Nível 21: a mudança já vale para a próxima tentativa.",
    });
    const row = await levelRow(21);
    expect(row).toMatchObject({
      sentence: "Big dog, big cat!",
      translation: "Cachorro grande, gato grande!",
      audioAsset: shippedAsset(21),
      audioKey: null,
      band: 3,
    });
    expect(row.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // what the pages (and the learners' level page) read next
    const list = await openList();
    expect(list.data.list.bands.flatMap((band) => band.levels).find((level) => level.level === 21)).toMatchObject({
      sentence: "Big dog, big cat!",
    });
    expect(await bucket.keys()).toEqual([]);
  });

  it("refuses invalid fields with 400 and pt-BR messages, keeps what was typed and changes nothing", async () => {
    await arrangeLevel(22);
    const before = await snapshot();
    const cases: [Record<string, Part>, Record<string, string[]>][] = [
      [
        { sentence: "   ", translation: "" },
        { sentence: ["Informe a frase em inglês"], translation: ["Informe a tradução"] },
      ],
      [{ sentence: "Olá, tudo bem?" }, { sentence: ["Use só letras sem acento, espaços e pontuação simples (. , ! ? ; : ' -)"] }],
      [{ sentence: "I have 3 cats." }, { sentence: ["Use só letras sem acento, espaços e pontuação simples (. , ! ? ; : ' -)"] }],
      [{ sentence: "<script>alert(1)</script>" }, { sentence: ["Use só letras sem acento, espaços e pontuação simples (. , ! ? ; : ' -)"] }],
      [{ sentence: "...!?" }, { sentence: ["Use só letras sem acento, espaços e pontuação simples (. , ! ? ; : ' -)"] }],
      [{ sentence: "a".repeat(201) }, { sentence: ["Máximo 200 caracteres"] }],
      [{ translation: "t".repeat(301) }, { translation: ["Máximo 300 caracteres"] }],
    ];
    for (const [values, errors] of cases) {
      const outcome = await editLevel(22, { ...values, audio_file: mp3() });
      expectRefusal(outcome, 400, null);
      expect(outcome.data.result.error).toMatchObject(errors);
      const typed = Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === "string" && value.trim() !== ""));
      expect(outcome.data.result.initialValue).toMatchObject(typed);
    }
    // no sentence or translation field at all
    expectRefusal(await editRequest(22, multipart(editPath(22), admin, { audio_file: NO_FILE })), 400, null);
    expect(await snapshot()).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
    // the limits themselves are fine; apostrophes, hyphens and the other punctuation too
    const edge = "a".repeat(200);
    expect((await editLevel(22, { sentence: edge, translation: "t".repeat(300) })).status).toBe(302);
    expect((await editLevel(22, { sentence: "She's a well-known chef; isn't she? Yes: she is, really." })).status).toBe(302);
    expect((await levelRow(22)).sentence).toBe("She's a well-known chef; isn't she? Yes: she is, really.");
  });

  it("stores an uploaded recording in R2 under pronunciation/ (sniffed type), sets audio_key and serves it in ranges", async () => {
    await arrangeLevel(31);
    const outcome = await editLevel(31, { audio_file: { bytes: MP3, name: "nivel.wav", type: "audio/wav" } });
    expect(outcome).toMatchObject({ status: 302, location: `${LIST}#nivel-31` });
    const row = await levelRow(31);
    expect(row.audioKey).toMatch(/^pronunciation\/[0-9a-f-]{36}\.mp3$/); // by content, not by the declared type
    expect(row.audioAsset).toBe(shippedAsset(31));
    expect(levelAudioUrl(row)).toBe(`/media/${row.audioKey}`);
    expect(await bucket.keys()).toEqual([row.audioKey]);

    const audio = await mediaGet(row.audioKey!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(new Uint8Array(await audio.arrayBuffer())).toEqual(MP3);
    const part = await mediaGet(row.audioKey!, { Range: "bytes=0-99" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 0-99/${MP3.length}`);

    const edit = await openEdit(31);
    expect(edit.data.level).toMatchObject({ audioSource: "upload", hasAudioUpload: true, audioUrl: `/media/${row.audioKey}` });
  });

  it("replacing the upload deletes the old object; 'back to the shipped recording' deletes the upload", async () => {
    await arrangeLevel(32);
    await editLevel(32, { audio_file: mp3() });
    const first = await levelRow(32);
    await editLevel(32, { audio_file: { bytes: wav(), name: "gravacao.wav", type: "audio/wav" } });
    const second = await levelRow(32);
    expect(second.audioKey).toMatch(/^pronunciation\/[0-9a-f-]{36}\.wav$/);
    expect(second.audioKey).not.toBe(first.audioKey);
    expect(await bucket.keys()).toEqual([second.audioKey]);
    expect((await mediaGet(first.audioKey!)).status).toBe(404);

    // a save without a file keeps the upload
    await editLevel(32, { translation: "Outra tradução." });
    expect((await levelRow(32)).audioKey).toBe(second.audioKey);

    // a new file and "restore" together: the new file wins
    await editLevel(32, { audio_file: mp3(), restore_audio: "on" });
    const third = await levelRow(32);
    expect(third.audioKey).toMatch(/\.mp3$/);
    expect(await bucket.keys()).toEqual([third.audioKey]);

    const shipped = hasShippedLevel(shippedAsset(32));
    expect((await openEdit(32)).data.level).toMatchObject({ canRestoreAudio: shipped });
    const reverted = await editLevel(32, { restore_audio: "on" });
    expect(reverted.status).toBe(302);
    if (shipped) {
      const row = await levelRow(32);
      expect(row).toMatchObject({ audioKey: null, audioAsset: shippedAsset(32) });
      expect(levelAudioUrl(row)).toMatch(/^\/content\/pronunciation\/.+/);
      expect(await bucket.keys()).toEqual([]);
      expect((await mediaGet(third.audioKey!)).status).toBe(404);
    } else {
      expect((await levelRow(32)).audioKey).toBe(third.audioKey);
    }
  });

  it("keeps the upload when 'restore' is sent but the shipped recording does not exist (a level always has audio)", async () => {
    await arrangeLevel(33, { audioAsset: "nao-existe" });
    await editLevel(33, { audio_file: mp3() });
    const uploaded = await levelRow(33);
    expect((await openEdit(33)).data.level).toMatchObject({ hasAudioUpload: true, canRestoreAudio: false });
    expect((await editLevel(33, { restore_audio: "on" })).status).toBe(302);
    expect((await levelRow(33)).audioKey).toBe(uploaded.audioKey);
    expect(await bucket.keys()).toEqual([uploaded.audioKey]);

    // and with no shipped asset at all
    await arrangeLevel(34, { audioAsset: null, audioKey: uploaded.audioKey });
    expect((await editLevel(34, { restore_audio: "on" })).status).toBe(302);
    expect((await levelRow(34)).audioKey).toBe(uploaded.audioKey);
  });

  it("takes a form posted without JavaScript: multipart with an empty file input, or url-encoded without files", async () => {
    await arrangeLevel(35);
    // what a browser sends for the form with no file chosen (and the checkbox unticked)
    const plain = await editLevel(35, { sentence: "Sit in the seat.", translation: "Sente no assento.", audio_file: NO_FILE });
    expect(plain).toMatchObject({ status: 302, location: `${LIST}#nivel-35` });
    expect((await levelRow(35)).sentence).toBe("Sit in the seat.");
    const encoded = await editRequest(
      35,
      request(editPath(35), { jar: admin, form: { sentence: "Full of fools.", translation: "Cheio de tolos." } }),
    );
    expect(encoded.status).toBe(302);
    expect(await levelRow(35)).toMatchObject({ sentence: "Full of fools.", translation: "Cheio de tolos.", audioKey: null });
  });
});

describe("upload refusals: 4xx, conform form errors, nothing stored in R2 or the database", () => {
  const AUDIO_TYPE = ["Erro", "Falha ao enviar áudio: Por favor selecione um arquivo de áudio (MP3, WAV, OGG, M4A ou WebM)"];
  const AUDIO_SIZE = ["Erro", "Falha ao enviar áudio: Áudio muito grande. Máximo 2MB"];

  it("refuses a file that is not audio (400) whatever its name and declared type", async () => {
    await arrangeLevel(41);
    const before = await snapshot();
    const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    for (const bytes of [new TextEncoder().encode("isto não é áudio"), PNG, SVG]) {
      const outcome = await editLevel(41, { sentence: "Kept sentence.", audio_file: mp3(bytes) });
      expectRefusal(outcome, 400, "audio_type", AUDIO_TYPE);
      expect(outcome.data.result.error?.audio_file).toEqual(["Por favor selecione um arquivo de áudio (MP3, WAV, OGG, M4A ou WebM)"]);
      expect(outcome.data.result.initialValue).toMatchObject({ sentence: "Kept sentence." });
    }
    expect(await snapshot()).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
  });

  it("refuses a recording over 2 MB (413); exactly 2 MB is fine", async () => {
    await arrangeLevel(42);
    const before = await snapshot();
    const big = new Uint8Array(AUDIO_LIMIT + 1);
    big.set(MP3);
    const outcome = await editLevel(42, { audio_file: mp3(big) });
    expectRefusal(outcome, 413, "audio_too_large", AUDIO_SIZE);
    expect(await snapshot()).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
    expect((await editLevel(42, { audio_file: mp3(big.subarray(0, AUDIO_LIMIT)) })).status).toBe(302);
  });

  it("refuses a declared body over the form's cap before reading it (413)", async () => {
    await arrangeLevel(43);
    const declared = multipart(editPath(43), admin, levelForm({ sentence: "Too big." }), { "Content-Length": String(20 * 1024 * 1024) });
    expectRefusal(await editRequest(43, declared), 413, "audio_too_large", AUDIO_SIZE);
    expect(declared.bodyUsed).toBe(false);
    expect((await levelRow(43)).sentence).toBe("The cat sat on the mat.");
  });

  it("refuses a body that is not a form (415) and a broken multipart (400), changing nothing", async () => {
    await arrangeLevel(44);
    const before = await snapshot();
    const json = new Request(`http://nika.test${editPath(44)}`, {
      method: "POST",
      headers: { Cookie: admin.header(), "Content-Type": "application/json" },
      body: JSON.stringify({ sentence: "Json sentence.", translation: "x" }),
    });
    expect((await editRequest(44, json)).status).toBe(415);
    const broken = new Request(`http://nika.test${editPath(44)}`, {
      method: "POST",
      headers: { Cookie: admin.header(), "Content-Type": "multipart/form-data; boundary=XYZ" },
      body: '--XYZ\r\nContent-Disposition: form-data; name="sentence"\r\n\r\nBroken\r\n--XYZ\r\nContent-Disposition: form-da',
    });
    expectRefusal(await editRequest(44, broken), 400, "unreadable");
    expect(await snapshot()).toEqual(before);
  });
});
