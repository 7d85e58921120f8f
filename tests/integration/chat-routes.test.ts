// Chat with Nika through its routes: guards, flags, conversations in the URL, the no-JS form post,
// the streaming resource routes (statuses before the first token) and the owner-only audio route.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatPageData } from "~/features/chat/types";
import { encodeWav } from "~/lib/audio/wav";
import * as modeRoute from "~/routes/_app+/_chat+/chat-with-nika.$mode";
import * as menuRoute from "~/routes/_app+/_chat+/chat-with-nika._index";
import * as lessonRoute from "~/routes/_app+/_chat+/chat.lesson.$lessonKey";
import * as levelRoute from "~/routes/_app+/_chat+/english-level-test";
import * as audioRoute from "~/routes/resources+/chat-audio.$conversationId.$file";
import * as greetRoute from "~/routes/resources+/chat.$conversationId.greet";
import * as messagesRoute from "~/routes/resources+/chat.$conversationId.messages";
import { createSession } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { appConfig, chatConversations, chatMessages, lessons, modules, users } from "~/server/schema";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, call, contextFor, CookieJar, request } from "./harness";

// A free port of its own (parallel runs and Stryker workers may run this file at once).
const PORT = await freePort();
const world = useChatWorld(PORT, "routes-openai-key");
const API = world.api;
let db: Database;
let n = 0;
beforeAll(() => {
  db = world.db;
});
beforeEach(async () => {
  await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_chat_game"));
});

const ctx = (env: Record<string, unknown> = world.aiEnv) => world.ctx(env);

async function learner(credits = 10, accountType: "free" | "blocked" = "free") {
  const [user] = await db
    .insert(users)
    .values({
      name: "Rotas",
      email: `routes${++n}@example.com`,
      monthlyCredits: credits,
      creditsPeriod: creditPeriod(new Date()),
      emailConfirmedAt: new Date(),
      accountType,
    })
    .returning();
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), user!.id, request("/")) }));
  return { id: user!.id, jar };
}
type Learner = Awaited<ReturnType<typeof learner>>;

/** GET /chat-with-nika/:mode → the conversation id it redirected to. */
async function open(who: Learner, mode = "english") {
  const outcome = await call(() => modeRoute.loader(args(request(`/chat-with-nika/${mode}`, { jar: who.jar }), ctx(), { mode })));
  expect(outcome.status).toBe(302);
  const match = /\?c=([0-9a-f-]{36})$/.exec(outcome.location ?? "");
  expect(match).not.toBeNull();
  return match![1]!;
}

function post(path: string, who: Learner | null, body?: FormData | Record<string, string>) {
  const headers = new Headers();
  if (who) headers.set("Cookie", who.jar.header());
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) {
    payload = new URLSearchParams(body);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  return new Request(`http://nika.test${path}`, { method: "POST", headers, body: payload });
}

const events = async (response: Response) =>
  (await response.text())
    .trim()
    .split("\n\n")
    .map((block) => {
      const [event, data] = block.split("\n");
      return { event: event!.slice("event: ".length), data: JSON.parse(data!.slice("data: ".length)) as Record<string, unknown> };
    });

describe("pages", () => {
  it("the menu lists the four modes with their flags; anonymous visitors go to sign in", async () => {
    const who = await learner();
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_chat_game"));
    const menu = await call<{ modes: { id: string; enabled: boolean }[] }>(() =>
      menuRoute.loader(args(request("/chat-with-nika", { jar: who.jar }), ctx())),
    );
    expect(menu.data.modes.map((m) => [m.id, m.enabled])).toEqual([
      ["portuguese", true],
      ["english", true],
      ["game", false],
      ["roleplay", true],
    ]);
    const anonymous = await call(() => menuRoute.loader(args(request("/chat-with-nika"), ctx())));
    expect([anonymous.status, anonymous.location]).toEqual([302, "/signin?redirectTo=%2Fchat-with-nika"]);
  });

  it("opening a mode starts a conversation (counted) and the page shows it; flags and unknown modes are refused", async () => {
    const who = await learner();
    const id = await open(who, "game");
    const page = await call<ChatPageData>(() =>
      modeRoute.loader(args(request(`/chat-with-nika/game?c=${id}`, { jar: who.jar }), ctx(), { mode: "game" })),
    );
    expect(page.data).toMatchObject({
      conversationId: id,
      mode: { id: "game", language: "en" },
      messages: [],
      nikaAvailable: true,
      voiceAvailable: true,
      credits: 10,
    });
    expect((await db.select().from(users).where(eq(users.id, who.id)))[0]!.conversationsStarted).toBe(1);

    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_chat_game"));
    const disabled = await call(() =>
      modeRoute.loader(args(request(`/chat-with-nika/game?c=${id}`, { jar: who.jar }), ctx(), { mode: "game" })),
    );
    expect(disabled.status).toBe(403);
    const unknown = await call(() => modeRoute.loader(args(request("/chat-with-nika/lesson", { jar: who.jar }), ctx(), { mode: "lesson" })));
    expect(unknown.status).toBe(404);
    // someone else's conversation, or one of another mode, is not found
    const other = await learner();
    const stranger = await call(() =>
      modeRoute.loader(args(request(`/chat-with-nika/english?c=${id}`, { jar: other.jar }), ctx(), { mode: "english" })),
    );
    expect(stranger.status).toBe(404);
    const wrongMode = await call(() =>
      modeRoute.loader(args(request(`/chat-with-nika/english?c=${id}`, { jar: who.jar }), ctx(), { mode: "english" })),
    );
    expect(wrongMode.status).toBe(404);
  });

  it("without a provider the page says Nika is not available (no canned reply)", async () => {
    const who = await learner();
    const outcome = await call(() => modeRoute.loader(args(request("/chat-with-nika/english", { jar: who.jar }), ctx({}), { mode: "english" })));
    const id = /c=(.*)$/.exec(outcome.location!)![1]!;
    const page = await call<ChatPageData>(() =>
      modeRoute.loader(args(request(`/chat-with-nika/english?c=${id}&greet=1`, { jar: who.jar }), ctx({}), { mode: "english" })),
    );
    expect(page.data.nikaAvailable).toBe(false);
    expect(page.data.greetingError).toEqual({ code: "nika_unavailable", title: "Não foi possível enviar", message: "Nika não está disponível" });
    expect(await db.select().from(chatMessages).where(eq(chatMessages.conversationId, id))).toEqual([]);
  });

  it("without JavaScript the greeting is awaited on the server (&greet=1), then the page shows it", async () => {
    const who = await learner();
    const id = await open(who);
    const greeted = await call(() =>
      modeRoute.loader(args(request(`/chat-with-nika/english?c=${id}&greet=1`, { jar: who.jar }), ctx(), { mode: "english" })),
    );
    expect([greeted.status, greeted.location]).toEqual([302, `/chat-with-nika/english?c=${id}`]);
    const page = await call<ChatPageData>(() =>
      modeRoute.loader(args(request(`/chat-with-nika/english?c=${id}`, { jar: who.jar }), ctx(), { mode: "english" })),
    );
    expect(page.data.messages).toMatchObject([
      { role: "nika", text: expect.stringContaining('"start"'), audioUrl: expect.stringMatching(/^\/resources\/chat-audio\//) },
    ]);
    expect((await db.select().from(users).where(eq(users.id, who.id)))[0]!.monthlyCredits).toBe(10);
  });

  it("lesson practice resolves M01A02-style keys to the lesson; unknown keys are 404 after the sign-in check", async () => {
    const who = await learner();
    const [mod] = await db.insert(modules).values({ title: "Módulo Rotas", orderIndex: 41 }).returning();
    const [lesson] = await db
      .insert(lessons)
      .values({ moduleId: mod!.id, title: "Ordering food", description: "Restaurants", orderIndex: 3 })
      .returning();
    const started = await call(() => lessonRoute.loader(args(request("/chat/lesson/M41A03", { jar: who.jar }), ctx(), { lessonKey: "M41A03" })));
    const id = /c=(.*)$/.exec(started.location!)![1]!;
    expect(started.location).toBe(`/chat/lesson/M41A03?c=${id}`);
    const [conversation] = await db.select().from(chatConversations).where(eq(chatConversations.id, id));
    expect(conversation).toMatchObject({ mode: "lesson", lessonId: lesson!.id });
    const page = await call<ChatPageData>(() =>
      lessonRoute.loader(args(request(`/chat/lesson/M41A03?c=${id}`, { jar: who.jar }), ctx(), { lessonKey: "M41A03" })),
    );
    expect(page.data.lesson).toEqual({ title: "Ordering food", key: "M41A03" });
    expect(page.data.backTo).toBe(`/courses/lessons/${lesson!.id}`);
    for (const key of ["M41A09", "M99A01", "41-3", "M1A3"]) {
      const missing = await call(() => lessonRoute.loader(args(request(`/chat/lesson/${key}`, { jar: who.jar }), ctx(), { lessonKey: key })));
      expect(missing.status).toBe(404);
    }
    const anonymous = await call(() => lessonRoute.loader(args(request("/chat/lesson/M99A01"), ctx(), { lessonKey: "M99A01" })));
    expect(anonymous.status).toBe(302);
  });

  it("the level test page shows the stored level; a form post starts (or retakes) the test; its flag is enforced", async () => {
    const who = await learner();
    await db
      .update(users)
      .set({ englishLevel: "B1", englishLevelAt: new Date("2026-03-10T12:00:00Z") })
      .where(eq(users.id, who.id));
    const intro = await call<{ intro: { level: string; levelAt: string } }>(() =>
      levelRoute.loader(args(request("/english-level-test", { jar: who.jar }), ctx())),
    );
    expect(intro.data.intro).toEqual({ level: "B1", levelAt: "2026-03-10T12:00:00.000Z" });
    const started = await call(() => levelRoute.action(args(post("/english-level-test", who, { intent: "new" }), ctx())));
    expect(started.location).toMatch(/^\/english-level-test\?c=[0-9a-f-]{36}$/);
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_chat_english_test"));
    try {
      const refused = await call(() => levelRoute.action(args(post("/english-level-test", who, { intent: "new" }), ctx())));
      expect(refused.status).toBe(403);
      expect((await call(() => levelRoute.loader(args(request("/english-level-test", { jar: who.jar }), ctx())))).status).toBe(403);
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_chat_english_test"));
    }
  });
});

describe("the no-JS form post", () => {
  /** A refused post: its code and the conform reply — the text kept for the box, [title, message] as form errors. */
  const refused = (code: string, text: string, formErrors: string[]) => ({
    code,
    result: { status: "error", initialValue: { intent: "send", text }, error: { "": formErrors }, fields: ["intent", "text"] },
  });

  it("waits for the whole reply, stores it and redirects to it", async () => {
    const who = await learner(3);
    const id = await open(who);
    const sent = await call(() =>
      modeRoute.action(args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "send", text: "I like rain" }), ctx(), { mode: "english" })),
    );
    expect(sent.status).toBe(302);
    const stored = await db.select().from(chatMessages).where(eq(chatMessages.conversationId, id)).orderBy(chatMessages.createdAt);
    expect(stored.map((m) => [m.role, m.text])).toEqual([
      ["user", "I like rain"],
      ["nika", 'Você disse: "I like rain". Muito bem, continue praticando!'],
    ]);
    expect(sent.location).toBe(`/chat-with-nika/english?c=${id}#m-${stored[1]!.id}`);
  });

  it("refuses with a 4xx and gives the text back: empty (400), credits exhausted (402); provider down is 502, none configured 503", async () => {
    const who = await learner(0);
    const id = await open(who);
    const empty = await call(() =>
      modeRoute.action(args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "send", text: "  " }), ctx(), { mode: "english" })),
    );
    expect([empty.status, empty.data]).toEqual([400, refused("invalid_text", "  ", ["Não foi possível enviar", "Digite uma mensagem."])]);
    const broke = await call(() =>
      modeRoute.action(args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "send", text: "Hello?" }), ctx(), { mode: "english" })),
    );
    expect([broke.status, broke.data]).toEqual([402, refused("credits_exhausted", "Hello?", ["Créditos Esgotados", "Seus créditos acabaram."])]);

    const rich = await learner(2);
    const richId = await open(rich);
    await fetch(`${API}/__ai/next?mode=error`, { method: "POST" });
    const down = await call(() =>
      modeRoute.action(args(post(`/chat-with-nika/english?c=${richId}`, rich, { intent: "send", text: "Hello?" }), ctx(), { mode: "english" })),
    );
    expect(down.status).toBe(502);
    expect(down.data).toEqual(refused("provider_unavailable", "Hello?", ["Erro de Conexão", "Não foi possível se comunicar com o servidor"]));
    const unconfigured = await call(() =>
      modeRoute.action(
        args(post(`/chat-with-nika/english?c=${richId}`, rich, { intent: "send", text: "Hello?" }), ctx({}), { mode: "english" }),
      ),
    );
    expect([unconfigured.status, unconfigured.data]).toEqual([
      503,
      refused("nika_unavailable", "Hello?", ["Não foi possível enviar", "Nika não está disponível"]),
    ]);
    expect((await db.select().from(users).where(eq(users.id, rich.id)))[0]!.monthlyCredits).toBe(2);
  });
});

describe("streaming resource routes", () => {
  it("streams a reply as text/event-stream; refusals before the first token carry their status", async () => {
    const who = await learner(1);
    const id = await open(who);
    const greeting = await greetRoute.action(args(post(`/resources/chat/${id}/greet`, who), ctx(), { conversationId: id }));
    expect(greeting.status).toBe(200);
    expect((await events(greeting)).at(-1)!.event).toBe("done");
    const again = await greetRoute.action(args(post(`/resources/chat/${id}/greet`, who), ctx(), { conversationId: id }));
    expect(again.status).toBe(409);

    const form = new FormData();
    form.set("text", "Good morning");
    const ok = await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, form), ctx(), { conversationId: id }));
    expect(ok.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
    const okEvents = await events(ok);
    expect(okEvents.filter((e) => e.event === "token").length).toBeGreaterThan(2);
    expect(okEvents.at(-1)).toMatchObject({
      event: "done",
      data: { balance: 0, text: 'Você disse: "Good morning". Muito bem, continue praticando!' },
    });

    const broke = await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, form), ctx(), { conversationId: id }));
    expect(broke.status).toBe(402);
    expect(await events(broke)).toEqual([
      { event: "error", data: { code: "CREDITS_EXHAUSTED", message: "Seus créditos acabaram.", status: 402 } },
    ]);
  });

  it("answers 401 'Erro de Autenticação' without a session, 403 for blocked accounts, 404 for other people's conversations", async () => {
    const who = await learner();
    const id = await open(who);
    const anonymous = await messagesRoute.action(
      args(post(`/resources/chat/${id}/messages`, null, { text: "hi" }), ctx(), { conversationId: id }),
    );
    expect(anonymous.status).toBe(401);
    expect((await events(anonymous))[0]!.data).toMatchObject({ code: "UNAUTHENTICATED", title: "Erro de Autenticação" });
    const blocked = await learner(10, "blocked");
    expect(
      (await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, blocked, { text: "hi" }), ctx(), { conversationId: id }))).status,
    ).toBe(403);
    const other = await learner();
    expect(
      (await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, other, { text: "hi" }), ctx(), { conversationId: id }))).status,
    ).toBe(404);
    expect((await greetRoute.action(args(post(`/resources/chat/${id}/greet`, other), ctx(), { conversationId: id }))).status).toBe(404);
    expect((await db.select().from(users).where(eq(users.id, other.id)))[0]!.monthlyCredits).toBe(10);
  });

  it("checks in order — id shape, session, body, ownership, flag — before saying no provider is configured", async () => {
    const who = await learner();
    const id = await open(who);
    const noProvider = () => ctx({}); // one context per request, as in the worker
    const send = (path: string, conversationId: string, viewer: Learner | null, body: Record<string, string> | undefined = { text: "hi" }) =>
      messagesRoute.action(args(post(path, viewer, body), noProvider(), { conversationId }));
    // malformed id: 404 even for anonymous visitors and without a provider (it used to be a 503)
    expect((await send("/resources/chat/nao-e-uuid/messages", "nao-e-uuid", null)).status).toBe(404);
    // then the session, then the body (JSON is not a form: 415)
    expect((await send(`/resources/chat/${id}/messages`, id, null)).status).toBe(401);
    const json = new Request(`http://nika.test/resources/chat/${id}/messages`, {
      method: "POST",
      headers: { Cookie: who.jar.header(), "Content-Type": "application/json" },
      body: '{"text":"hi"}',
    });
    expect((await messagesRoute.action(args(json, noProvider(), { conversationId: id }))).status).toBe(415);
    // someone else's conversation: 404, not "no provider"
    const other = await learner();
    expect((await send(`/resources/chat/${id}/messages`, id, other)).status).toBe(404);
    // the owner, no provider: 503 and nothing spent
    expect((await send(`/resources/chat/${id}/messages`, id, who)).status).toBe(503);
    expect((await db.select().from(users).where(eq(users.id, who.id)))[0]!.monthlyCredits).toBe(10);
  });

  it("reads the message form through its schema: a text far over the limit or an audio that is no file is a 400, nothing spent", async () => {
    const who = await learner(3);
    const id = await open(who);
    const send = (body: Record<string, string>) =>
      messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, body), ctx(), { conversationId: id }));
    const long = await send({ text: "a".repeat(20_001) });
    expect(long.status).toBe(400);
    expect(await events(long)).toEqual([
      { event: "error", data: { code: "invalid_text", message: "Mensagem muito longa (máximo 5000 caracteres).", status: 400 } },
    ]);
    const notAFile = await send({ audio: "not a file" });
    expect(notAFile.status).toBe(400);
    expect(await events(notAFile)).toEqual([{ event: "error", data: { code: "invalid_audio", message: "Dados inválidos.", status: 400 } }]);
    // an empty text is the same refusal as no text at all
    const empty = await send({ text: "" });
    expect(await events(empty)).toEqual([{ event: "error", data: { code: "invalid_text", message: "Digite uma mensagem.", status: 400 } }]);
    expect((await db.select().from(users).where(eq(users.id, who.id)))[0]!.monthlyCredits).toBe(3);
  });

  it("takes a voice message as a WAV file, refuses oversize bodies before reading them, and serves the audio only to its owner", async () => {
    const who = await learner(2);
    const id = await open(who);
    const form = new FormData();
    const wav = encodeWav(
      new Float32Array(4000).map((_, i) => Math.sin(i / 5) * 0.3),
      16000,
    );
    form.set("audio", new Blob([wav], { type: "audio/wav" }), "voice.wav");
    const voice = await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, form), ctx(), { conversationId: id }));
    const voiceEvents = await events(voice);
    expect(voiceEvents[0]).toMatchObject({
      event: "transcription",
      data: { text: "I like to play football", audioUrl: expect.stringMatching(/\.wav$/) },
    });
    expect(voiceEvents.at(-1)!.event).toBe("done");

    const huge = new Request(`http://nika.test/resources/chat/${id}/messages`, {
      method: "POST",
      headers: { Cookie: who.jar.header(), "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(60 * 1024 * 1024) },
      body: "--x--",
    });
    const refused = await messagesRoute.action(args(huge, ctx(), { conversationId: id }));
    expect(refused.status).toBe(413);

    // the recording, to its owner (with ranges), to nobody else
    const url = (voiceEvents[0]!.data as { audioUrl: string }).audioUrl;
    const [, , , conversationId, file] = url.split("/");
    const get = (who: Learner | null, headers: Record<string, string> = {}) =>
      audioRoute.loader(
        args(new Request(`http://nika.test${url}`, { headers: { ...(who ? { Cookie: who.jar.header() } : {}), ...headers } }), ctx(), {
          conversationId: conversationId!,
          file: file!,
        }),
      );
    const full = await get(who);
    expect([full.status, full.headers.get("Content-Type"), (await full.arrayBuffer()).byteLength]).toEqual([200, "audio/wav", wav.byteLength]);
    const part = await get(who, { Range: "bytes=0-43" });
    expect([part.status, part.headers.get("Content-Range"), (await part.arrayBuffer()).byteLength]).toEqual([
      206,
      `bytes 0-43/${wav.byteLength}`,
      44,
    ]);
    expect((await get(null)).status).toBe(401);
    expect((await get(await learner())).status).toBe(404);
  });
});
