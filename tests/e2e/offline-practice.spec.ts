// Offline practice (issue 38). With JavaScript: a learner downloads Revisão (cards made due in the database,
// as an earlier game would leave them) and a category on /flashcard-v2 — sizes before and after — waits for
// the service worker to control the page, goes offline (context.setOffline), reloads /flashcard-v2 and lands
// on the offline player, plays a Revisão game and a category game there (the online game's screens), comes
// back online and sees the answers synced once (database checked: 2 games, 2 credits, every answer once);
// the same queue posted again counts nothing twice; a tampered bundle, another learner's and an expired one
// are refused; axe on the offline player. Without JavaScript the download panel is absent and the online game
// starts as before.
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import type { Page } from "@playwright/test";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { flashcardGames, flashcardQuestions, offlineBundles } from "../../app/features/flashcards/tables";
import { signToken } from "../../app/server/signed-token.server";
import { budget, expect, expectAccessible, jsEnabled, test, userById, visit, withDb } from "./support";

const SESSION_SECRET = parseEnv(readFileSync("tests/e2e/e2e.vars", "utf8")).SESSION_SECRET!;

type QueueRow = { userId: string; answer: { key: string }; game: unknown; bundleRef: { id: string; signature: string } };

/** The answer queue as the page keeps it (IndexedDB `nika-offline`, store `queue`). */
const queueOf = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<QueueRow[]>((resolve, reject) => {
        const open = indexedDB.open("nika-offline");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction("queue").objectStore("queue").getAll();
          all.onsuccess = () => {
            resolve(all.result as QueueRow[]);
            open.result.close();
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );

/** The sync request the client would make for `rows` (the endpoint's body). */
function syncBody(rows: QueueRow[]) {
  const bundles = new Map(rows.map((row) => [row.bundleRef.id, row.bundleRef]));
  const games = new Map(rows.map((row) => [(row.game as { id: string }).id, row.game]));
  return { bundles: [...bundles.values()], games: [...games.values()], answers: rows.map((row) => row.answer) };
}

/** Makes `count` cards of `slug` due for the learner (missed last time), as a played game would. */
async function makeDue(userId: string, slug: string, count: number) {
  await withDb((db) =>
    db.execute(sql`
      insert into flashcard_memory (user_id, card_id, due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state, last_review, last_missed)
      select ${userId}, k.id, now() - interval '1 day', 1, 5, 1, 1, 1, 1, 3, now() - interval '2 days', true
      from flashcard_cards k where k.category_slug = ${slug} and not k.hidden and k.deleted_at is null
      order by k.order_index, k.id limit ${count}`),
  );
}

const row = (page: Page, name: string) => page.getByTestId("offline-download").filter({ has: page.getByText(name, { exact: true }) });

/** Downloads `name`'s bundle from the picker: its estimate first, then the stored size. */
async function download(page: Page, name: string) {
  const item = row(page, name);
  // the sizes are asked for once the section is on screen
  await item.scrollIntoViewIfNeeded();
  await expect(item.getByTestId("offline-download-size")).toHaveText(/^\d+(,\d)? (KB|MB) · \d+ cartões$/, { timeout: budget(15_000) });
  await item.getByRole("button", { name: "Baixar para praticar offline" }).click();
  await expect(item.getByTestId("offline-download-size")).toHaveText(/^Baixado · \d+(,\d)? (KB|MB) · \d+ cartões · válido até \d\d\/\d\d$/, {
    timeout: budget(60_000),
  });
  await expect(item.getByRole("button", { name: "Remover download" })).toBeVisible();
}

/** Plays the offline game shown, answering the first option each time; returns how many questions it had. */
async function playOffline(page: Page) {
  await expect(page.getByTestId("offline-confirm")).toContainText(
    "Este jogo custa 1 crédito, descontado quando suas respostas forem sincronizadas.",
  );
  await page.getByRole("button", { name: "Começar" }).click();
  const position = page.getByTestId("flashcard-position");
  await expect(position).toHaveText(/^Cartão 1 de \d+$/, { timeout: budget(20_000) });
  const total = Number(/de (\d+)/.exec((await position.textContent())!)![1]);
  for (let i = 0; i < total; i++) {
    await expect(position).toHaveText(`Cartão ${i + 1} de ${total}`);
    if (i === 0) await expectAccessible(page);
    await page.locator('input[name="optionId"]').first().check();
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page.getByTestId("flashcard-feedback")).toBeVisible();
    await expect(page.locator("#resposta")).toBeFocused();
    await page.getByRole("button", { name: i === total - 1 ? "Finalizar" : "Próximo" }).click();
  }
  await expect(page.getByTestId("flashcards-result")).toBeVisible();
  return total;
}

const offlineGames = (userId: string) =>
  withDb((db) =>
    db
      .select()
      .from(flashcardGames)
      .where(and(eq(flashcardGames.userId, userId), isNotNull(flashcardGames.offlineBundleId))),
  );

const syncedAnswers = (userId: string) =>
  withDb(async (db) =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(flashcardQuestions)
          .innerJoin(flashcardGames, eq(flashcardGames.id, flashcardQuestions.gameId))
          .where(and(eq(flashcardGames.userId, userId), isNotNull(flashcardQuestions.answerKey)))
      )[0]!.n,
    ),
  );

test("download Revisão and a category, play both offline, sync once when back online; a replay counts nothing twice", async ({
  page,
  context,
  learner,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "downloading and playing offline need JavaScript");
  test.setTimeout(budget(180_000));
  await makeDue(learner.id, "animais", 6);

  await visit(page, "/flashcard-v2");
  await expect(page.getByRole("heading", { name: "Praticar offline" })).toBeVisible();
  await download(page, "Revisão");
  await download(page, "Animais");
  // downloads cost nothing
  expect((await userById(learner.id)).monthlyCredits).toBe(50);
  await expectAccessible(page);

  // the service worker controls the page, with the offline player precached
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: budget(15_000) }).toBe(true);
  await expect
    .poll(() => page.evaluate(async () => Boolean(await caches.match("/flashcard-v2/offline", { ignoreSearch: true }))), {
      timeout: budget(15_000),
    })
    .toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page).toHaveURL(/\/flashcard-v2\/offline$/);
  await expect(page.getByRole("heading", { level: 1, name: "Flashcards offline" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "os flashcards baixados funcionam offline" })).toBeVisible();
  const downloads = page.getByRole("list", { name: "Flashcards baixados" });
  await expect(downloads.getByRole("listitem")).toHaveCount(2);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Jogar Revisão" }).click();
  const review = await playOffline(page);
  expect(review).toBe(6);
  await page.getByRole("button", { name: "Escolher outro download" }).click();
  await page.getByRole("button", { name: "Jogar Animais" }).click();
  const category = await playOffline(page);
  expect(category).toBe(10);
  await page.getByRole("button", { name: "Escolher outro download" }).click();
  await expect(page.getByTestId("offline-sync-status")).toHaveText(`${review + category} respostas aguardando sincronização`);
  const queued = await queueOf(page);
  expect(queued).toHaveLength(review + category);
  expect(queued.every((item) => item.userId === learner.id)).toBe(true);
  // nothing reached the server while offline
  expect(await offlineGames(learner.id)).toEqual([]);

  // back online: synced once
  await context.setOffline(false);
  await expect(page.getByTestId("offline-sync-status")).toHaveText(`${review + category} respostas sincronizadas`, { timeout: budget(20_000) });
  expect(await queueOf(page)).toEqual([]);
  const games = await offlineGames(learner.id);
  expect(games.map((game) => game.answeredCount).sort((a, b) => a - b)).toEqual([review, category]);
  expect(games.every((game) => game.finishedAt !== null)).toBe(true);
  expect(await syncedAnswers(learner.id)).toBe(review + category);
  expect((await userById(learner.id)).monthlyCredits).toBe(48);

  // the same queue again: every answer a duplicate, nothing counted twice
  const replay = await page.request.post("/resources/offline/sync", { data: syncBody(queued) });
  expect(replay.status()).toBe(200);
  const replayed = (await replay.json()) as { accepted: string[]; duplicate: string[]; refused: unknown[] };
  expect(replayed.accepted).toEqual([]);
  expect(replayed.duplicate.sort()).toEqual(queued.map((item) => item.answer.key).sort());
  expect(await syncedAnswers(learner.id)).toBe(review + category);
  expect(await offlineGames(learner.id)).toHaveLength(2);
  expect((await userById(learner.id)).monthlyCredits).toBe(48);

  // Remover download: the row and its media go
  await visit(page, "/flashcard-v2");
  await row(page, "Animais").getByRole("button", { name: "Remover download" }).click();
  await expect(row(page, "Animais").getByRole("button", { name: "Baixar para praticar offline" })).toBeVisible();
});

/** The account marker (IndexedDB `nika-offline`, store `meta`, key `account`), or null. Never creates the database. */
const markerOf = (page: Page) =>
  page.evaluate(
    async () =>
      (await indexedDB.databases()).some((db) => db.name === "nika-offline") &&
      new Promise<string | null>((resolve, reject) => {
        const open = indexedDB.open("nika-offline");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("meta")) return resolve(null);
          const get = db.transaction("meta").objectStore("meta").get("account");
          get.onsuccess = () => {
            resolve((get.result as string | undefined) ?? null);
            db.close();
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );

test("a signed-in page marks this browser as the learner's; signing out clears the mark and keeps the queue", async ({
  page,
  learner,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "the marker is written by the page's script");
  await visit(page, "/");
  // written late (never in the page's first moments), then kept
  await expect.poll(async () => (await markerOf(page)) || null, { timeout: budget(10_000) }).toBe(learner.id);
  // an answer queued for this learner stays after signing out
  await page.evaluate(
    (userId) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("nika-offline");
        open.onsuccess = () => {
          const tx = open.result.transaction("queue", "readwrite");
          tx.objectStore("queue").put({ userId, answer: { key: "k-1" }, game: {}, bundleRef: {} }, "k-1");
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    learner.id,
  );
  await page.getByRole("button", { name: "Sair" }).first().click();
  await expect(page).toHaveRedirectedTo(/^\/signin/);
  await expect.poll(async () => (await markerOf(page)) || null, { timeout: budget(10_000) }).toBeNull();
  expect((await queueOf(page)).map((item) => item.userId)).toEqual([learner.id]);
});

test("a tampered bundle, another learner's and an expired one are refused by the sync", async ({
  page,
  learner,
  createAccount,
  pageAs,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "the bundle is downloaded by the page's script");
  await visit(page, "/flashcard-v2");
  const issued = await page.request.post("/resources/offline/bundle", { data: { target: "category", slug: "animais" } });
  expect(issued.status()).toBe(200);
  const { bundle } = (await issued.json()) as {
    bundle: { id: string; signature: string; cards: { id: string; options: { id: string }[] }[] };
  };
  const card = bundle.cards[0]!;
  const body = (signature: string, bundleId = bundle.id) => {
    const gameId = crypto.randomUUID();
    return {
      bundles: [{ id: bundleId, signature }],
      games: [{ id: gameId, bundleId, questionCount: Math.min(10, bundle.cards.length) }],
      answers: [
        { key: crypto.randomUUID(), gameId, position: 0, cardId: card.id, chosenId: card.options[0]!.id, answeredAt: new Date().toISOString() },
      ],
    };
  };
  const refusedCode = async (response: Awaited<ReturnType<Page["request"]["post"]>>) => {
    expect(response.status()).toBe(200);
    const out = (await response.json()) as { accepted: string[]; refused: { code: string; message: string }[] };
    expect(out.accepted).toEqual([]);
    expect(out.refused[0]!.message).toMatch(/\p{L}/u);
    return out.refused[0]!.code;
  };

  // tampered: one character of the signature changed (a middle one: every bit of it counts)
  const middle = Math.floor(bundle.signature.length / 2);
  const flipped = bundle.signature.slice(0, middle) + (bundle.signature[middle] === "A" ? "B" : "A") + bundle.signature.slice(middle + 1);
  expect(await refusedCode(await page.request.post("/resources/offline/sync", { data: body(flipped) }))).toBe("bad_signature");

  // another learner's: the same signed bundle sent by someone else
  const other = await pageAs(await createAccount("learner"));
  expect(await refusedCode(await other.request.post("/resources/offline/sync", { data: body(bundle.signature) }))).toBe("not_yours");

  // expired: its expiry moved into the past (and signed again, as the server would have issued it)
  const past = new Date(Math.floor(Date.now() / 1000 - 3600) * 1000);
  await withDb((db) =>
    db
      .update(offlineBundles)
      .set({ issuedAt: new Date(past.getTime() - 14 * 86_400_000), expiresAt: past })
      .where(eq(offlineBundles.id, bundle.id)),
  );
  const subject = `${bundle.id}:${learner.id}:${past.toISOString()}`;
  const resigned = (await signToken({ SESSION_SECRET }, "offline-bundle", subject)).slice(subject.length + 1);
  expect(await refusedCode(await page.request.post("/resources/offline/sync", { data: body(resigned) }))).toBe("expired");

  expect(await offlineGames(learner.id)).toEqual([]);
  expect((await userById(learner.id)).monthlyCredits).toBe(50);
});

test("without JavaScript the download button is absent and the online game starts as before", async ({ page, learner }, testInfo) => {
  test.skip(jsEnabled(testInfo), "the no-JS page");
  await visit(page, "/flashcard-v2");
  await expect(page.getByTestId("category-tile")).toHaveCount(8);
  await expect(page.getByRole("button", { name: "Baixar para praticar offline" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Praticar offline" })).toHaveCount(0);
  await page.getByRole("button", { name: /^Animais/ }).click();
  await expect(page).toHaveURL(/\/flashcard-v2\/[0-9a-f-]{36}/);
  await expect(page.getByRole("group", { name: "What is this?" })).toBeVisible();
  expect((await userById(learner.id)).monthlyCredits).toBe(49);
  // the offline player page is the same for everyone and says it needs JavaScript
  await page.goto("/flashcard-v2/offline");
  await expect(page.getByRole("heading", { level: 1, name: "Flashcards offline" })).toBeVisible();
  // (text locators skip <noscript>; without JavaScript its content is the page's)
  await expect(page.locator("noscript p")).toContainText("Os jogos baixados precisam de JavaScript.");
});
