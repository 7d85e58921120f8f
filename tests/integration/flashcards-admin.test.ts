// Flashcards, admin side (decision 0012): the category list and its controls (move, hide/show, soft
// delete), adding and editing cards with picture and recording uploads, and what the game then plays —
// against PGlite with the real migrations (which ship the content) and a real R2 (Miniflare). Each
// test makes a category of its own with 5 cards in 5 groups, so a game asks every visible card.
import { readFileSync } from "node:fs";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cardAudioUrl, cardImageUrl } from "~/features/flashcards/content.server";
import { loadGame, startGame } from "~/features/flashcards/game.server";
import { flashcardCards, flashcardCategories } from "~/features/flashcards/tables";
import * as listRoute from "~/routes/_app+/_labs+/flashcard-v2_.admin.$category";
import * as newRoute from "~/routes/_app+/_labs+/flashcard-v2_.admin.$category.new";
import * as editRoute from "~/routes/_app+/_labs+/flashcard-v2_.admin.cards.$cardId";
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

const PNG = new Uint8Array(readFileSync("tests/fixtures/tiny.png"));
const FAKE_PNG = new Uint8Array(readFileSync("tests/fixtures/fake-image.png"));
const MP3 = new Uint8Array(readFileSync("content/flashcards/audio/animais-dog.mp3"));
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>');
const EXE = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, ...new Array(2048).fill(0x41)]);
const IMAGE_LIMIT = 5_242_880;
const AUDIO_LIMIT = 2_097_152;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

let { db, bucket, ctx, admin, learner, anonymous, learnerId } = {} as AdminWorld;
beforeAll(async () => ({ db, bucket, ctx, admin, learner, anonymous, learnerId } = await createAdminWorld(500)));
afterAll(() => bucket?.dispose());
beforeEach(() => bucket.clear());

// ——— arrangement ———

const WORDS = [
  ["dog", "cachorro"],
  ["cat", "gato"],
  ["cow", "vaca"],
  ["horse", "cavalo"],
  ["pig", "porco"],
] as const;
let categories = 0;

/** A category of its own with 5 cards (shipped pictures and recordings of Animais), in 5 groups. */
async function arrangeCategory() {
  const slug = `teste-${++categories}`;
  await db
    .insert(flashcardCategories)
    .values({ slug, name: `Categoria de teste ${categories}`, tileAsset: "animais", orderIndex: 100 + categories });
  const cards = await db
    .insert(flashcardCards)
    .values(
      WORDS.map(([word, translation], index) => ({
        categorySlug: slug,
        word,
        translation,
        distractorGroup: `${slug}-${word}`,
        imageAsset: `animais-${word}`,
        audioAsset: `animais-${word}`,
        orderIndex: index,
      })),
    )
    .returning({ id: flashcardCards.id, word: flashcardCards.word });
  const id = Object.fromEntries(cards.map((card) => [card.word, card.id])) as Record<(typeof WORDS)[number][0], string>;
  return { slug, id };
}

const cardRow = async (id: string) => (await db.select().from(flashcardCards).where(eq(flashcardCards.id, id)))[0]!;
const listedWords = async (slug: string) =>
  (
    await db
      .select({ word: flashcardCards.word })
      .from(flashcardCards)
      .where(and(eq(flashcardCards.categorySlug, slug), isNull(flashcardCards.deletedAt)))
      .orderBy(asc(flashcardCards.orderIndex), asc(flashcardCards.id))
  ).map((row) => row.word);
const snapshot = (slug: string) => db.select().from(flashcardCards).where(eq(flashcardCards.categorySlug, slug)).orderBy(asc(flashcardCards.id));

/** A learner's new game in the category: every word it shows (each asked card is among its own options). */
async function wordsInAGame(slug: string) {
  const started = await startGame(db, learnerId, { kind: "category", slug }, new Date());
  if (!started.ok) return { code: started.code, words: [] as string[], game: null };
  const game = (await loadGame(db, learnerId, started.gameId))!;
  const words = new Set(game.questions.flatMap((question) => question.options.map((option) => option.word)));
  return { code: "ok" as const, words: [...words].sort(), game };
}

// ——— requests ———

const png = (bytes = PNG): Part => ({ bytes, name: "foto.png", type: "image/png" });
const mp3 = (bytes = MP3): Part => ({ bytes, name: "voz.mp3", type: "audio/mpeg" });

const cardForm = (values: Record<string, Part> = {}): Record<string, Part> => ({
  word: "kitten",
  translation: "gatinho",
  distractor_group: "",
  image_file: NO_FILE,
  audio_file: NO_FILE,
  ...values,
});

type Reply = AdminReply;
type PostOptions = { jar?: AdminWorld["admin"]; context?: AppLoadContext };

const listPath = (slug: string) => `/flashcard-v2/admin/${slug}`;
const listAction = (slug: string, form: Record<string, string>, { jar = admin, context = ctx() }: PostOptions = {}) =>
  call<Reply>(() => listRoute.action(args(request(listPath(slug), { jar, form }), context, { category: slug })));
const addCard = (slug: string, values: Record<string, Part> = {}, { jar = admin, context = ctx() }: PostOptions = {}) =>
  call<Reply>(() => newRoute.action(args(multipart(`${listPath(slug)}/new`, jar, cardForm(values)), context, { category: slug })));
const editCardRequest = (cardId: string, req: Request, context = ctx()) => call<Reply>(() => editRoute.action(args(req, context, { cardId })));
const editCard = (cardId: string, values: Record<string, Part> = {}, { jar = admin, context = ctx() }: PostOptions = {}) =>
  editCardRequest(cardId, multipart(`/flashcard-v2/admin/cards/${cardId}`, jar, cardForm(values)), context);

const mediaGet = (key: string, headers: Record<string, string> = {}) =>
  media.loader(args(new Request(`http://nika.test/media/${key}`, { headers }), ctx(), { "*": key }));

// ——— guards ———

describe("admin guards", () => {
  it("send learners home and anonymous visitors to /signin from every page", async () => {
    const { slug, id } = await arrangeCategory();
    const pages = [
      () => listRoute.loader(args(request(listPath(slug), { jar: learner }), ctx(), { category: slug })),
      () => newRoute.loader(args(request(`${listPath(slug)}/new`, { jar: learner }), ctx(), { category: slug })),
      () => editRoute.loader(args(request(`/flashcard-v2/admin/cards/${id.dog}`, { jar: learner }), ctx(), { cardId: id.dog })),
    ];
    for (const page of pages) expect(await call(page)).toMatchObject({ status: 302, location: "/" });
    const anon = await call(() => listRoute.loader(args(request(listPath(slug), { jar: anonymous }), ctx(), { category: slug })));
    expect(anon.status).toBe(302);
    expect(anon.location).toMatch(/^\/signin\?redirectTo=/);
  });

  it("answer 403 to every action of a learner and change nothing (database or storage)", async () => {
    const { slug, id } = await arrangeCategory();
    const before = await snapshot(slug);
    const posts = [
      ...(["hide", "show", "delete"] as const).map(
        (intent) => () => listAction(slug, { intent, card_id: id.dog, confirmed: "yes" }, { jar: learner }),
      ),
      () => listAction(slug, { intent: "move", card_id: id.cat, direction: "up" }, { jar: learner }),
      () => addCard(slug, { word: "hacker", image_file: png(), audio_file: mp3() }, { jar: learner }),
      () => editCard(id.dog, { word: "hacked", image_file: png(), audio_file: mp3() }, { jar: learner }),
    ];
    for (const post of posts) expect(await post()).toMatchObject({ status: 403, data: { error: "Acesso restrito a administradores." } });
    const anon = await editCard(id.dog, { word: "hacked", image_file: png() }, { jar: anonymous });
    expect(anon.status).toBe(302);
    expect(anon.location).toMatch(/^\/signin\?redirectTo=/);
    expect(await snapshot(slug)).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
  });

  it("follow the flag: flashcards off → 403 'feature disabled' for admins too, nothing saved", async () => {
    const { slug, id } = await arrangeCategory();
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_flashcards"));
    try {
      const page = await call(() => listRoute.loader(args(request(listPath(slug), { jar: admin }), ctx(), { category: slug })));
      expect(page).toMatchObject({ status: 403, data: { featureDisabled: true } });
      expect((await editCard(id.dog, { word: "off" })).status).toBe(403);
      expect((await listAction(slug, { intent: "hide", card_id: id.dog })).status).toBe(403);
      expect((await cardRow(id.dog)).word).toBe("dog");
      expect((await cardRow(id.dog)).hidden).toBe(false);
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_flashcards"));
    }
  });
});

// ——— the list ———

describe("the category list (/flashcard-v2/admin/:category)", () => {
  it("lists the cards in order with picture, word, translation, group and sound; an unknown category is a 404", async () => {
    const { slug, id } = await arrangeCategory();
    const outcome = await call<{ list: { category: { name: string }; cards: Record<string, unknown>[] } }>(() =>
      listRoute.loader(args(request(listPath(slug), { jar: admin }), ctx(), { category: slug })),
    );
    expect(outcome.status).toBe(200);
    expect(outcome.data.list.cards.map((card) => card.word)).toEqual(["dog", "cat", "cow", "horse", "pig"]);
    expect(outcome.data.list.cards[0]).toMatchObject({
      id: id.dog,
      translation: "cachorro",
      distractorGroup: `${slug}-dog`,
      hidden: false,
      imageUrl: expect.stringMatching(/^\/content\/flashcards\/.+\.svg$/),
      audioUrl: expect.stringMatching(/^\/content\/flashcards\/.+\.mp3$/),
      audioSource: "shipped",
    });

    for (const category of ["nao-existe", "../animais"]) {
      const missing = await call(() => listRoute.loader(args(request(listPath(category), { jar: admin }), ctx(), { category })));
      expect(missing.status).toBe(404);
      const newForm = await call(() => newRoute.loader(args(request(`${listPath(category)}/new`, { jar: admin }), ctx(), { category })));
      expect(newForm.status).toBe(404);
    }
    for (const cardId of [MISSING_ID, "not-a-uuid"]) {
      const missing = await call(() =>
        editRoute.loader(args(request(`/flashcard-v2/admin/cards/${cardId}`, { jar: admin }), ctx(), { cardId })),
      );
      expect(missing.status).toBe(404);
    }
  });

  it("moves a card up and down by swapping places (ends stay put); the list follows", async () => {
    const { slug, id } = await arrangeCategory();
    const moved = await listAction(slug, { intent: "move", card_id: id.cow, direction: "up" });
    expect(moved).toMatchObject({ status: 302, location: `${listPath(slug)}#cartao-${id.cow}` });
    expect(await toastOf(moved)).toEqual({ type: "success", title: "Ordem atualizada", description: "cow" });
    expect(await listedWords(slug)).toEqual(["dog", "cow", "cat", "horse", "pig"]);

    await listAction(slug, { intent: "move", card_id: id.dog, direction: "down" });
    expect(await listedWords(slug)).toEqual(["cow", "dog", "cat", "horse", "pig"]);

    // at the ends: nothing changes, no toast
    const top = await listAction(slug, { intent: "move", card_id: id.cow, direction: "up" });
    expect(top.status).toBe(302);
    expect(await toastOf(top)).toBeNull();
    await listAction(slug, { intent: "move", card_id: id.pig, direction: "down" });
    expect(await listedWords(slug)).toEqual(["cow", "dog", "cat", "horse", "pig"]);
  });

  it("moves correctly even when two cards share an order_index (ranks are made distinct)", async () => {
    const { slug, id } = await arrangeCategory();
    await db.update(flashcardCards).set({ orderIndex: 1 }).where(eq(flashcardCards.categorySlug, slug));
    const order = await listedWords(slug); // all tied: ordered by id
    const second = order[1]!;
    const secondId = id[second as keyof typeof id];
    await listAction(slug, { intent: "move", card_id: secondId, direction: "up" });
    expect(await listedWords(slug)).toEqual([second, order[0], ...order.slice(2)]);
  });

  it("hides and shows a card: a hidden card stays listed but a learner's game no longer asks or offers it", async () => {
    const { slug, id } = await arrangeCategory();
    expect((await wordsInAGame(slug)).words).toEqual(["cat", "cow", "dog", "horse", "pig"]);

    const hidden = await listAction(slug, { intent: "hide", card_id: id.cat });
    expect(hidden).toMatchObject({ status: 302, location: `${listPath(slug)}#cartao-${id.cat}` });
    expect(await toastOf(hidden)).toEqual({ type: "success", title: "Cartão oculto", description: "cat" });
    expect((await cardRow(id.cat)).hidden).toBe(true);
    expect(await listedWords(slug)).toContain("cat");
    const game = await wordsInAGame(slug);
    expect(game.words).toEqual(["cow", "dog", "horse", "pig"]);
    expect(game.game!.questionCount).toBe(4);

    await listAction(slug, { intent: "show", card_id: id.cat });
    expect((await cardRow(id.cat)).hidden).toBe(false);
    expect((await wordsInAGame(slug)).words).toEqual(["cat", "cow", "dog", "horse", "pig"]);
  });

  it("deletes softly after a confirmation: without it the page asks first; old games keep the card", async () => {
    const { slug, id } = await arrangeCategory();
    const old = await wordsInAGame(slug);

    const unconfirmed = await listAction(slug, { intent: "delete", card_id: id.horse });
    expect(unconfirmed).toMatchObject({ status: 302, location: `${listPath(slug)}?excluir=${id.horse}#confirmar-exclusao` });
    expect((await cardRow(id.horse)).deletedAt).toBeNull();
    const asking = await call<{ confirm: { word: string } | null }>(() =>
      listRoute.loader(args(request(`${listPath(slug)}?excluir=${id.horse}`, { jar: admin }), ctx(), { category: slug })),
    );
    expect(asking.data.confirm).toMatchObject({ word: "horse" });

    const deleted = await listAction(slug, { intent: "delete", card_id: id.horse, confirmed: "yes" });
    expect(deleted).toMatchObject({ status: 302, location: listPath(slug) });
    expect(await toastOf(deleted)).toEqual({ type: "success", title: "Cartão excluído", description: "horse" });
    expect((await cardRow(id.horse)).deletedAt).toBeInstanceOf(Date);
    expect(await listedWords(slug)).toEqual(["dog", "cat", "cow", "pig"]);
    expect((await wordsInAGame(slug)).words).toEqual(["cat", "cow", "dog", "pig"]);
    // a game started before still shows the card
    const reloaded = (await loadGame(db, learnerId, old.game!.id))!;
    expect(reloaded.questions.flatMap((q) => q.options.map((o) => o.word))).toContain("horse");

    // deleted cards cannot be hidden, moved or edited any more; with 3 cards left no game can start
    expect((await listAction(slug, { intent: "show", card_id: id.horse })).status).toBe(404);
    expect((await editCard(id.horse, { word: "pony" })).status).toBe(404);
    await listAction(slug, { intent: "delete", card_id: id.pig, confirmed: "yes" });
    expect((await wordsInAGame(slug)).code).toBe("too_few_cards");
  });

  it("refuses unknown controls (400) and cards of another category (404) through conform", async () => {
    const { slug, id } = await arrangeCategory();
    const other = await arrangeCategory();
    const before = await snapshot(slug);
    expectRefusal(await listAction(slug, { intent: "__drop_table__", card_id: id.dog }), 400, "unknown_intent", ["Erro", "Ação inválida."]);
    expectRefusal(await listAction(slug, { intent: "move", card_id: id.dog, direction: "sideways" }), 400, "unknown_intent");
    expectRefusal(await listAction(slug, { intent: "hide", card_id: "not-a-uuid" }), 400, "unknown_intent");
    expectRefusal(await listAction(slug, { intent: "hide", card_id: other.id.dog }), 404, "not_found", [
      "Erro",
      "Cartão não encontrado nesta categoria",
    ]);
    expectRefusal(await listAction("nao-existe", { intent: "hide", card_id: id.dog }), 404, "not_found");
    // every control refuses another category's card the same way, and changes neither category
    const otherBefore = await snapshot(other.slug);
    const controls: Record<string, string>[] = [
      { intent: "move", direction: "up" },
      { intent: "move", direction: "down" },
      { intent: "show" },
      { intent: "delete", confirmed: "yes" },
    ];
    for (const form of controls) {
      expectRefusal(await listAction(slug, { ...form, card_id: other.id.cow }), 404, "not_found", [
        "Erro",
        "Cartão não encontrado nesta categoria",
      ]);
    }
    expect(await snapshot(slug)).toEqual(before);
    expect(await snapshot(other.slug)).toEqual(otherBefore);
    expect((await cardRow(other.id.dog)).hidden).toBe(false);
  });
});

// ——— add and edit ———

describe("adding a card (/flashcard-v2/admin/:category/new)", () => {
  it("needs a picture: refused with a pt-BR message, the typed values kept, nothing stored", async () => {
    const { slug } = await arrangeCategory();
    const outcome = await addCard(slug, { word: "kitten", translation: "gatinho", audio_file: mp3() });
    expectRefusal(outcome, 400, "file_required", ["Erro", "Envie uma imagem para o novo cartão"]);
    expect(outcome.data.result.error?.image_file).toEqual(["Envie uma imagem para o novo cartão"]);
    expect(outcome.data.result.initialValue).toMatchObject({ word: "kitten", translation: "gatinho" });
    expect(await listedWords(slug)).toHaveLength(5);
    expect(await bucket.keys()).toEqual([]);
  });

  it("adds it at the end with its picture and recording, in a group of its own, and the game asks it", async () => {
    const { slug } = await arrangeCategory();
    const outcome = await addCard(slug, { word: "  kitten ", translation: "gatinho", image_file: png(), audio_file: mp3() });
    const [created] = await db
      .select()
      .from(flashcardCards)
      .where(and(eq(flashcardCards.categorySlug, slug), eq(flashcardCards.word, "kitten")));
    expect(outcome).toMatchObject({ status: 302, location: `${listPath(slug)}#cartao-${created!.id}` });
    expect(await toastOf(outcome)).toEqual({ type: "success", title: "Cartão salvo", description: "Ele já entra nos próximos jogos." });
    expect(created).toMatchObject({
      translation: "gatinho",
      distractorGroup: `cartao-${created!.id}`,
      orderIndex: 5,
      imageAsset: null,
      audioAsset: null,
    });
    expect(created!.imageKey).toMatch(/^flashcards\/[0-9a-f-]{36}\.png$/);
    expect(created!.audioKey).toMatch(/^flashcards\/[0-9a-f-]{36}\.mp3$/);
    expect(await bucket.keys()).toEqual([created!.imageKey, created!.audioKey].sort());
    expect(await listedWords(slug)).toEqual(["dog", "cat", "cow", "horse", "pig", "kitten"]);

    const game = await wordsInAGame(slug);
    expect(game.words).toContain("kitten");
    const option = game.game!.questions.flatMap((q) => q.options).find((o) => o.word === "kitten")!;
    expect(option.audioUrl).toBe(`/media/${created!.audioKey}`);
  });

  it("takes a group typed in any case as the lowercase group; refuses bad fields with 400 and keeps the input", async () => {
    const { slug } = await arrangeCategory();
    await addCard(slug, { word: "puppy", translation: "filhote", distractor_group: ` ${slug.toUpperCase()}-DOG `, image_file: png() });
    const [puppy] = await db
      .select()
      .from(flashcardCards)
      .where(and(eq(flashcardCards.categorySlug, slug), eq(flashcardCards.word, "puppy")));
    expect(puppy!.distractorGroup).toBe(`${slug}-dog`);

    const invalid = await addCard(slug, { word: " ", translation: "x".repeat(81), distractor_group: "grupo com espaço", image_file: png() });
    expectRefusal(invalid, 400, null);
    expect(invalid.data.result.error).toMatchObject({
      word: ["Informe a palavra em inglês"],
      translation: ["Máximo 80 caracteres"],
      distractor_group: ["Use só letras minúsculas sem acento, números e hífens (ex.: animais-dog)"],
    });
    expect(invalid.data.result.initialValue).toMatchObject({ distractor_group: "grupo com espaço" });
    const tooLong = await addCard(slug, { word: "w".repeat(61), image_file: png() });
    expect(tooLong.data.result.error?.word).toEqual(["Máximo 60 caracteres"]);
    expect(await listedWords(slug)).toHaveLength(6);
    expect(await bucket.keys()).toHaveLength(1); // puppy's picture only
  });
});

describe("editing a card (/flashcard-v2/admin/cards/:cardId)", () => {
  it("saves word, translation and group; the learner's next game shows the new word", async () => {
    const { slug, id } = await arrangeCategory();
    const outcome = await editCard(id.cat, { word: "kitty", translation: "gatinha", distractor_group: `${slug}-dog` });
    expect(outcome).toMatchObject({ status: 302, location: `${listPath(slug)}#cartao-${id.cat}` });
    expect(await toastOf(outcome)).toEqual({
      type: "success",
      title: "Cartão salvo",
      description: "As mudanças já valem para os próximos jogos.",
    });
    expect(await cardRow(id.cat)).toMatchObject({ word: "kitty", translation: "gatinha", distractorGroup: `${slug}-dog` });
    // cat now shares dog's group: 4 groups, so a game still starts, and shows "kitty", never "cat"
    const game = await wordsInAGame(slug);
    expect(game.words).toContain("kitty");
    expect(game.words).not.toContain("cat");
    for (const question of game.game!.questions) {
      const words = question.options.map((o) => o.word);
      expect(words.includes("kitty") && words.includes("dog")).toBe(false);
    }
  });

  it("a changed word drops the shipped recording (the game falls back to the voice); other edits keep it", async () => {
    const { slug, id } = await arrangeCategory();
    await editCard(id.dog, { word: "dog", translation: "cão" });
    expect((await cardRow(id.dog)).audioAsset).toBe("animais-dog");
    await editCard(id.dog, { word: "Dog", translation: "cão" }); // same word, other case
    expect((await cardRow(id.dog)).audioAsset).toBe("animais-dog");

    await editCard(id.dog, { word: "doggy", translation: "cãozinho" });
    const row = await cardRow(id.dog);
    expect(row.audioAsset).toBeNull();
    expect(cardAudioUrl(row)).toBeNull();
    const option = (await wordsInAGame(slug)).game!.questions.flatMap((q) => q.options).find((o) => o.word === "doggy")!;
    expect(option.audioUrl).toBeNull();
    // the picture is untouched
    expect(row.imageAsset).toBe("animais-dog");
  });

  it("stores a good picture and recording under flashcards/, served by /media with their types (audio in ranges)", async () => {
    const { id } = await arrangeCategory();
    const outcome = await editCard(id.cow, {
      word: "cow",
      translation: "vaca",
      image_file: png(),
      audio_file: { bytes: MP3, name: "vaca.wav", type: "audio/wav" },
    });
    expect(outcome.status).toBe(302);
    const row = await cardRow(id.cow);
    expect(row.imageKey).toMatch(/^flashcards\/[0-9a-f-]{36}\.png$/);
    expect(row.audioKey).toMatch(/^flashcards\/[0-9a-f-]{36}\.mp3$/); // sniffed, not the declared type
    expect(row.audioAsset).toBe("animais-cow");
    expect(cardImageUrl(row)).toBe(`/media/${row.imageKey}`);

    const image = await mediaGet(row.imageKey!);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);

    const audio = await mediaGet(row.audioKey!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(audio.headers.get("Content-Disposition")).toBeNull();
    expect(audio.headers.get("Accept-Ranges")).toBe("bytes");
    expect(new Uint8Array(await audio.arrayBuffer())).toEqual(MP3);

    const part = await mediaGet(row.audioKey!, { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 100-199/${MP3.length}`);
    expect(part.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(MP3.subarray(100, 200));
  });

  it("replacing an upload deletes the old object; clearing it brings back the shipped picture and recording", async () => {
    const { id } = await arrangeCategory();
    await editCard(id.pig, { word: "pig", translation: "porco", image_file: png(), audio_file: mp3() });
    const first = await cardRow(id.pig);
    await editCard(id.pig, { word: "pig", translation: "porco", image_file: png() });
    const second = await cardRow(id.pig);
    expect(second.imageKey).not.toBe(first.imageKey);
    expect(second.audioKey).toBe(first.audioKey);
    expect(await bucket.keys()).toEqual([second.imageKey, second.audioKey].sort());

    await editCard(id.pig, { word: "pig", translation: "porco", restore_image: "on", restore_audio: "on" });
    const restored = await cardRow(id.pig);
    expect(restored).toMatchObject({ imageKey: null, audioKey: null, imageAsset: "animais-pig", audioAsset: "animais-pig" });
    expect(cardImageUrl(restored)).toMatch(/^\/content\/flashcards\/.+\.svg$/);
    expect(cardAudioUrl(restored)).toMatch(/^\/content\/flashcards\/.+\.mp3$/);
    expect(await bucket.keys()).toEqual([]);
    expect((await mediaGet(second.imageKey!)).status).toBe(404);
  });

  it("keeps the only picture of an added card when 'restore' is sent (there is nothing to go back to)", async () => {
    const { slug } = await arrangeCategory();
    await addCard(slug, { word: "lamb", translation: "cordeiro", image_file: png() });
    const [lamb] = await db
      .select()
      .from(flashcardCards)
      .where(and(eq(flashcardCards.categorySlug, slug), eq(flashcardCards.word, "lamb")));
    const outcome = await editCard(lamb!.id, { word: "lamb", translation: "cordeiro", restore_image: "on" });
    expect(outcome.status).toBe(302);
    expect((await cardRow(lamb!.id)).imageKey).toBe(lamb!.imageKey);
    expect(await bucket.keys()).toEqual([lamb!.imageKey]);
  });
});

describe("upload refusals: 4xx, conform form errors, nothing stored in R2 or the database", () => {
  const IMAGE_TYPE = ["Erro", "Falha ao enviar imagem: Por favor selecione um arquivo de imagem"];
  const IMAGE_SIZE = ["Erro", "Falha ao enviar imagem: Imagem muito grande. Máximo 5MB"];
  const AUDIO_TYPE = ["Erro", "Falha ao enviar áudio: Por favor selecione um arquivo de áudio (MP3, WAV, OGG, M4A ou WebM)"];
  const AUDIO_SIZE = ["Erro", "Falha ao enviar áudio: Áudio muito grande. Máximo 2MB"];

  it("refuses SVG, an executable and text posing as images (400), on edit and on add", async () => {
    const { slug, id } = await arrangeCategory();
    const before = await snapshot(slug);
    for (const bytes of [SVG, EXE, FAKE_PNG]) {
      const edited = await editCard(id.dog, { word: "wolf", image_file: png(bytes), audio_file: mp3() });
      expectRefusal(edited, 400, "image_type", IMAGE_TYPE);
      expect(edited.data.result.error?.image_file).toEqual(["Por favor selecione um arquivo de imagem"]);
      expect(edited.data.result.initialValue).toMatchObject({ word: "wolf" });
      expectRefusal(await addCard(slug, { word: "wolf", image_file: png(bytes) }), 400, "image_type", IMAGE_TYPE);
    }
    expect(await snapshot(slug)).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
  });

  it("refuses a picture over 5 MB with 413 (exactly 5 MB is fine)", async () => {
    const { slug, id } = await arrangeCategory();
    const big = new Uint8Array(IMAGE_LIMIT + 1);
    big.set(PNG);
    const before = await snapshot(slug);
    expectRefusal(await editCard(id.dog, { word: "dog", image_file: png(big) }), 413, "image_too_large", IMAGE_SIZE);
    expect(await snapshot(slug)).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
    expect((await editCard(id.dog, { word: "dog", translation: "cachorro", image_file: png(big.subarray(0, IMAGE_LIMIT)) })).status).toBe(302);
  });

  it("refuses a recording that is not audio (400) and one over 2 MB (413); exactly 2 MB is fine", async () => {
    const { slug, id } = await arrangeCategory();
    const before = await snapshot(slug);
    for (const bytes of [new TextEncoder().encode("isto não é áudio"), PNG, SVG, EXE]) {
      expectRefusal(await editCard(id.cat, { word: "cat", audio_file: mp3(bytes) }), 400, "audio_type", AUDIO_TYPE);
    }
    const big = new Uint8Array(AUDIO_LIMIT + 1);
    big.set(MP3);
    const tooBig = await editCard(id.cat, { word: "cat", audio_file: mp3(big), image_file: png() });
    expectRefusal(tooBig, 413, "audio_too_large", AUDIO_SIZE);
    expect(tooBig.data.result.error?.audio_file).toEqual(["Áudio muito grande. Máximo 2MB"]);
    expect(await snapshot(slug)).toEqual(before);
    expect(await bucket.keys()).toEqual([]);
    expect((await editCard(id.cat, { word: "cat", translation: "gato", audio_file: mp3(big.subarray(0, AUDIO_LIMIT)) })).status).toBe(302);
  });

  it("refuses a declared body over the form's cap before reading it (413)", async () => {
    const { id } = await arrangeCategory();
    const declared = multipart(`/flashcard-v2/admin/cards/${id.dog}`, admin, cardForm(), { "Content-Length": String(20 * 1024 * 1024) });
    const refused = await editCardRequest(id.dog, declared);
    expectRefusal(refused, 413, "file_too_large", ["Erro", "Falha ao enviar arquivos: Arquivos muito grandes. Imagem até 5MB, áudio até 2MB"]);
    expect(declared.bodyUsed).toBe(false);
    expect((await cardRow(id.dog)).word).toBe("dog");
  });

  it("takes a picture of exactly 5 MB and a recording of exactly 2 MB in one form (the body cap has room for both and the fields)", async () => {
    const { id } = await arrangeCategory();
    const picture = new Uint8Array(IMAGE_LIMIT);
    picture.set(PNG);
    const recording = new Uint8Array(AUDIO_LIMIT);
    recording.set(MP3);
    const outcome = await editCard(id.horse, { word: "horse", translation: "cavalo", image_file: png(picture), audio_file: mp3(recording) });
    expect(outcome.status).toBe(302);
    const row = await cardRow(id.horse);
    expect(await bucket.keys()).toEqual([row.imageKey, row.audioKey].sort());
  });

  it("refuses a body that is not a form (415) and answers a multipart body without its boundary with 400 through conform", async () => {
    const { id } = await arrangeCategory();
    const path = `http://nika.test/flashcard-v2/admin/cards/${id.dog}`;
    const post = (body: string, type: string) =>
      editCardRequest(id.dog, new Request(path, { method: "POST", body, headers: { Cookie: admin.header(), "Content-Type": type } }));
    const json = await post(JSON.stringify({ word: "wolf" }), "application/json");
    expect(json.status).toBe(415);
    expect(json.data).toMatchObject({ code: "unsupported_type" });
    expectRefusal(await post("word=wolf", "multipart/form-data"), 400, "unreadable", [
      "Erro",
      "Falha ao salvar cartão: Não foi possível ler o envio.",
    ]);
    expect((await cardRow(id.dog)).word).toBe("dog");
  });

  it("deletes the new upload again when the card is gone by the time it is saved", async () => {
    const { id } = await arrangeCategory();
    await db.update(flashcardCards).set({ deletedAt: new Date() }).where(eq(flashcardCards.id, id.dog));
    expectRefusal(await editCard(id.dog, { word: "dog", image_file: png(), audio_file: mp3() }), 404, "not_found", [
      "Erro",
      "Falha ao salvar cartão: Cartão não encontrado",
    ]);
    expect(await bucket.keys()).toEqual([]);
  });
});

describe("storage: a failed write leaves nothing behind; a form without files needs none", () => {
  it("answers 500 when storing the recording fails, and deletes the picture it had already stored (nothing saved)", async () => {
    const { id } = await arrangeCategory();
    const puts: string[] = [];
    const failing = new Proxy(bucket.bucket, {
      get: (target, name) =>
        name === "put"
          ? (...a: Parameters<R2Bucket["put"]>) => {
              puts.push(a[0]);
              return a[0].endsWith(".mp3") ? Promise.reject(new Error("R2 fora do ar")) : target.put(...a);
            }
          : Reflect.get(target, name, target),
    }) as R2Bucket;
    const before = await cardRow(id.dog);
    const outcome = await editCard(id.dog, { word: "wolf", image_file: png(), audio_file: mp3() }, { context: ctx({ MEDIA: failing }) });
    expectRefusal(outcome, 500, "audio_failed", ["Erro", "Falha ao enviar áudio: R2 fora do ar"]);
    expect(puts).toHaveLength(2);
    expect(await bucket.keys()).toEqual([]);
    expect(await cardRow(id.dog)).toEqual(before);
  });

  it("saves a form without files without touching storage (no R2 binding needed)", async () => {
    const { id } = await arrangeCategory();
    const outcome = await editCard(id.dog, { word: "dog", translation: "cão" }, { context: ctx({ MEDIA: undefined }) });
    expect(outcome.status).toBe(302);
    expect((await cardRow(id.dog)).translation).toBe("cão");
  });
});
