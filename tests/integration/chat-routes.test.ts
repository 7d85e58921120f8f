// Chat with Nika through its routes: guards, flags, conversations in the URL, the no-JS form post,
// the streaming resource routes (statuses before the first token) and the owner-only audio route.
import { asc, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatPageData } from "~/features/chat/types";
import { GREETING_CLAIM_TTL_SECONDS, startConversation } from "~/features/conversation";
import { chatConversations, chatMessages } from "~/features/conversation/tables";
import { lessons, modules } from "~/features/courses/tables";
import type { TodayData } from "~/features/today/plan.server";
import { MAX_AUDIO_BYTES } from "~/lib/audio/validate";
import { encodeWav } from "~/lib/audio/wav";
import * as modeRoute from "~/routes/_app+/_chat+/chat-with-nika.$mode";
import * as menuRoute from "~/routes/_app+/_chat+/chat-with-nika._index";
import * as lessonRoute from "~/routes/_app+/_chat+/chat.lesson.$lessonKey";
import * as levelRoute from "~/routes/_app+/_chat+/english-level-test";
import * as homeRoute from "~/routes/_app+/_index";
import * as audioRoute from "~/routes/resources+/chat-audio.$conversationId.$file";
import * as greetRoute from "~/routes/resources+/chat.$conversationId.greet";
import * as messagesRoute from "~/routes/resources+/chat.$conversationId.messages";
import { createSession, getSessionUser } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { getFlags } from "~/server/flags.server";
import { appConfig, creditLedger, sessions, users } from "~/server/schema";
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
      .set({ englishLevel: "B1", englishLevelAt: new Date("2026-03-10T01:00:00Z") })
      .where(eq(users.id, who.id));
    const intro = await call<{ intro: { level: string; levelAtLabel: string } }>(() =>
      levelRoute.loader(args(request("/english-level-test", { jar: who.jar }), ctx())),
    );
    // the day of the test in São Paulo (22:00 there the evening before)
    expect(intro.data.intro).toEqual({ level: "B1", levelAtLabel: "09/03/2026" });
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

  it("a malformed or foreign conversation in ?c= is a 404 before anything is spent", async () => {
    const who = await learner(3);
    const other = await learner(3);
    const othersId = await open(other);
    for (const c of ["nao-e-uuid", "1' or '1'='1", othersId]) {
      const refusedSend = await call(() =>
        modeRoute.action(
          args(post(`/chat-with-nika/english?c=${encodeURIComponent(c)}`, who, { intent: "send", text: "Hi" }), ctx(), { mode: "english" }),
        ),
      );
      expect(refusedSend.status, c).toBe(404);
    }
    expect((await db.select().from(users).where(eq(users.id, who.id)))[0]!.monthlyCredits).toBe(3);
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

// ——— rules of the endpoints and the page that a broken line must not get past (found by mutation testing) ———

describe("the streaming endpoints' refusals", () => {
  const refusalOf = async (response: Response) => ({
    status: response.status,
    type: response.headers.get("Content-Type"),
    cache: response.headers.get("Cache-Control"),
    events: await events(response),
  });
  const error = (status: number, data: Record<string, unknown>) => [{ event: "error", data: { ...data, status } }];

  it("are event streams, never cached, with their codes: a malformed id is 404, a method other than POST 405, only a missing session has the sign-in title", async () => {
    const who = await learner();
    const id = await open(who);
    const stream = { type: "text/event-stream; charset=utf-8", cache: "no-store" };
    const malformed = await messagesRoute.action(args(post("/resources/chat/x/messages", who, { text: "hi" }), ctx(), { conversationId: "x" }));
    expect(await refusalOf(malformed)).toEqual({
      status: 404,
      ...stream,
      events: error(404, { code: "not_found", message: "Conversa não encontrada" }),
    });
    const put = new Request(`http://nika.test/resources/chat/${id}/messages`, { method: "PUT", headers: { Cookie: who.jar.header() } });
    expect(await refusalOf(await messagesRoute.action(args(put, ctx(), { conversationId: id })))).toEqual({
      status: 405,
      ...stream,
      events: error(405, { code: "method_not_allowed", message: "Use POST." }),
    });
    const blocked = await learner(10, "blocked");
    const refused = await refusalOf(
      await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, blocked, { text: "hi" }), ctx(), { conversationId: id })),
    );
    expect(refused.status).toBe(403);
    expect(refused.events[0]!.data.title).toBeUndefined();
  });

  it("say why the body was refused: not a form 415, unreadable 400 (invalid_text); over the audio limit plus the form's room 413 (invalid_audio)", async () => {
    const who = await learner(2);
    const id = await open(who);
    const send = (headers: Record<string, string>, body: string) =>
      messagesRoute.action(
        args(
          new Request(`http://nika.test/resources/chat/${id}/messages`, {
            method: "POST",
            headers: { Cookie: who.jar.header(), ...headers },
            body,
          }),
          ctx(),
          { conversationId: id },
        ),
      );
    const json = await send({ "Content-Type": "application/json" }, '{"text":"hi"}');
    expect(await refusalOf(json)).toMatchObject({
      status: 415,
      events: error(415, { code: "invalid_text", message: "Tipo de conteúdo não suportado. Envie um formulário." }),
    });
    const noBoundary = await send({ "Content-Type": "multipart/form-data" }, "text=hi");
    expect(await refusalOf(noBoundary)).toMatchObject({
      status: 400,
      events: error(400, { code: "invalid_text", message: "Não foi possível ler o envio." }),
    });
    const room = MAX_AUDIO_BYTES + 64 * 1024;
    const over = await send({ "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(room + 1) }, "text=hi");
    expect(await refusalOf(over)).toMatchObject({
      status: 413,
      events: error(413, { code: "invalid_audio", message: "Áudio muito grande (máximo 50MB)" }),
    });
    // a body declared at exactly the cap is read (here a short text, so it is answered)
    const atCap = await send({ "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(room) }, "text=hi");
    expect(atCap.status).toBe(200);
    expect((await events(atCap)).at(-1)!.event).toBe("done");
    expect((await db.select().from(users).where(eq(users.id, who.id)))[0]!.monthlyCredits).toBe(1);
  });
});

describe("the chat page's rules", () => {
  const page = (who: Learner, path: string, env?: Record<string, unknown>) =>
    call<ChatPageData>(() => modeRoute.loader(args(request(path, { jar: who.jar }), ctx(env), { mode: path.split("/")[2]!.split("?")[0]! })));

  it("with JavaScript the page does not wait for Nika's greeting (only &greet=1 does); its redirects are never cached", async () => {
    const who = await learner();
    const opened = await call(() => modeRoute.loader(args(request("/chat-with-nika/english", { jar: who.jar }), ctx(), { mode: "english" })));
    expect(opened.headers.get("Cache-Control")).toBe("no-store");
    const id = /c=(.*)$/.exec(opened.location!)![1]!;
    const shown = await page(who, `/chat-with-nika/english?c=${id}`);
    expect([shown.status, shown.data.messages]).toEqual([200, []]);
    expect(await db.select().from(chatMessages).where(eq(chatMessages.conversationId, id))).toEqual([]);
    const greeted = await page(who, `/chat-with-nika/english?c=${id}&greet=1`);
    expect([greeted.status, greeted.headers.get("Cache-Control")]).toEqual([302, "no-store"]);
  });

  it("lists the menu's modes with their flags, and offers voice only when the provider transcribes", async () => {
    const who = await learner();
    const id = await open(who);
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_chat_game"));
    const shown = await page(who, `/chat-with-nika/english?c=${id}`);
    expect(shown.data.modes.map((m) => [m.id, m.path, m.enabled])).toEqual([
      ["portuguese", "/chat-with-nika/portuguese", true],
      ["english", "/chat-with-nika/english", true],
      ["game", "/chat-with-nika/game", false],
      ["roleplay", "/chat-with-nika/roleplay", true],
    ]);
    expect(shown.data.voiceAvailable).toBe(true);
    // the automation webhook for text only: Nika answers, but there is no transcription
    const textOnly = await page(who, `/chat-with-nika/english?c=${id}`, { NIKA_CHAT_WEBHOOK_URL: `${API}/webhook/nika-chat` });
    expect([textOnly.data.nikaAvailable, textOnly.data.voiceAvailable]).toEqual([true, false]);
  });

  it("shows which messages were spoken and which failed", async () => {
    const who = await learner(3);
    const id = await open(who);
    const form = new FormData();
    form.set(
      "audio",
      new Blob(
        [
          encodeWav(
            new Float32Array(4000).map((_, i) => Math.sin(i / 5) * 0.3),
            16000,
          ),
        ],
        { type: "audio/wav" },
      ),
      "voz.wav",
    );
    await events(await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, form), ctx(), { conversationId: id })));
    await fetch(`${API}/__ai/next?mode=error`, { method: "POST" });
    await call(() =>
      modeRoute.action(args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "send", text: "Hello?" }), ctx(), { mode: "english" })),
    );
    const shown = await page(who, `/chat-with-nika/english?c=${id}`);
    expect(shown.data.messages.map((m) => [m.role, m.voice, m.failed])).toEqual([
      ["user", true, false],
      ["nika", false, false],
      ["user", false, true],
    ]);
  });

  it("a lesson's conversation is not found under another lesson's address", async () => {
    const who = await learner();
    const [mod] = await db.insert(modules).values({ title: "Módulo Regras", orderIndex: 42 }).returning();
    await db.insert(lessons).values([
      { moduleId: mod!.id, title: "Aula um", orderIndex: 1 },
      { moduleId: mod!.id, title: "Aula dois", orderIndex: 2 },
    ]);
    const lessonPage = (key: string, query = "") =>
      call(() => lessonRoute.loader(args(request(`/chat/lesson/${key}${query}`, { jar: who.jar }), ctx(), { lessonKey: key })));
    const id = /c=(.*)$/.exec((await lessonPage("M42A01")).location!)![1]!;
    expect((await lessonPage("M42A01", `?c=${id}`)).status).toBe(200);
    expect((await lessonPage("M42A02", `?c=${id}`)).status).toBe(404);
  });

  it("the no-JS form refuses an unknown intent with 400 and spends nothing", async () => {
    const who = await learner(2);
    const id = await open(who);
    const refused = await call<{ code: string }>(() =>
      modeRoute.action(args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "apagar", text: "hi" }), ctx(), { mode: "english" })),
    );
    expect([refused.status, refused.data.code]).toEqual([400, "invalid_text"]);
    expect((await db.select().from(users).where(eq(users.id, who.id)))[0]!.monthlyCredits).toBe(2);
    expect(await db.select().from(chatMessages).where(eq(chatMessages.conversationId, id))).toEqual([]);
  });
});

describe("the chat page's unexpected failures", () => {
  /** The database, with `method` failing from now on (the connection dropped). */
  const dropping = (method: "transaction" | "execute") =>
    new Proxy(db, {
      get: (target, name, receiver) =>
        name === method ? () => Promise.reject(new Error("conexão perdida")) : Reflect.get(target, name, receiver),
    });

  it("are errors (a 500), not a refusal the page shows: starting a conversation, sending a message", async () => {
    const who = await learner(2);
    const id = await open(who);
    const failing = (method: "transaction" | "execute") => contextFor(dropping(method), { MEDIA: world.media.bucket, ...world.aiEnv });
    await expect(
      call(() => modeRoute.loader(args(request("/chat-with-nika/english", { jar: who.jar }), failing("transaction"), { mode: "english" }))),
    ).rejects.toThrow("conexão perdida");
    await expect(
      call(() =>
        modeRoute.action(
          args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "send", text: "hi" }), failing("execute"), { mode: "english" }),
        ),
      ),
    ).rejects.toThrow("conexão perdida");
  });
});

describe("a message from a learner this isolate already knows: the spend statement checks the session itself", () => {
  // One isolate: every request's context shares the env object (as workerd hands them).
  let isolate: ReturnType<typeof ctx>["cloudflare"]["env"] | undefined;
  const inIsolate = () => {
    const context = ctx();
    if (isolate) context.cloudflare.env = isolate;
    else isolate = context.cloudflare.env;
    return context;
  };
  const pageLoad = (who: Learner) => getSessionUser(request("/chat-with-nika", { jar: who.jar }), inIsolate());
  const send = (who: Learner, id: string) =>
    messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, { text: "hi" }), inIsolate(), { conversationId: id }));
  const balanceOf = async (who: Learner) => (await db.select().from(users).where(eq(users.id, who.id)))[0]!.monthlyCredits;
  const userMessages = async (id: string) =>
    (await db.select().from(chatMessages).where(eq(chatMessages.conversationId, id))).filter((m) => m.role === "user");
  /** A learner with a conversation whom this isolate has kept (a page load), then changed behind its back. */
  const keptThenChanged = async (credits: number, change: (who: Learner) => Promise<unknown>) => {
    const who = await learner(credits);
    const id = await open(who);
    await pageLoad(who);
    await change(who);
    return { who, id };
  };
  const block = (who: Learner) => db.update(users).set({ accountType: "blocked" }).where(eq(users.id, who.id));
  const signOut = (who: Learner) => db.delete(sessions).where(eq(sessions.userId, who.id));
  const turnTheMonth = (who: Learner) => db.update(users).set({ creditsPeriod: "2001-01" }).where(eq(users.id, who.id));

  it("sends one statement fewer than a learner it does not know: no session read before the spend", async () => {
    const statementsOf = async (who: Learner, id: string) => {
      const before = world.queryCount();
      const response = await send(who, id);
      expect(response.status).toBe(200);
      expect((await events(response)).at(-1)!.event).toBe("done");
      return world.queryCount() - before;
    };
    const known = await learner(5);
    const knownChat = await open(known);
    await pageLoad(known);
    const unknown = await learner(5);
    const unknownChat = await open(unknown);
    const [knownStatements, unknownStatements] = [await statementsOf(known, knownChat), await statementsOf(unknown, unknownChat)];
    expect(unknownStatements - knownStatements).toBe(1);
    expect([await balanceOf(known), await balanceOf(unknown)]).toEqual([4, 4]);
    // The message changed the learner: the next page load of this isolate reads it again (not the kept 5 credits).
    expect((await pageLoad(known))?.monthlyCredits).toBe(4);
  });

  it("refuses, spending nothing, an account blocked or a session ended since this isolate read it", async () => {
    const { who: blockedLater, id } = await keptThenChanged(5, block);
    const blocked = await send(blockedLater, id);
    expect([blocked.status, blocked.headers.get("Cache-Control")]).toEqual([403, "no-store"]);
    expect((await events(blocked))[0]!.data).toMatchObject({ code: "BLOCKED", status: 403 });
    expect(await balanceOf(blockedLater)).toBe(5);
    expect(await userMessages(id)).toEqual([]);

    const { who: signedOutLater, id: other } = await keptThenChanged(5, signOut);
    const ended = await send(signedOutLater, other);
    expect(ended.status).toBe(401);
    expect((await events(ended))[0]!.data).toMatchObject({ code: "UNAUTHENTICATED", title: "Erro de Autenticação", status: 401 });
    expect(await balanceOf(signedOutLater)).toBe(5);
    expect(await userMessages(other)).toEqual([]);
  });

  it("a level found by the English test is on the next page load, even when one during the reply kept the learner", async () => {
    const who = await learner(5);
    const test = (await startConversation(ctx(), who, { mode: "english-test" })).id;
    await pageLoad(who);
    const body = { text: "\n[[NIKA_LEVEL:b2]]\n" }; // the fake model echoes it: its reply carries the marker
    await world.hook("mode=slow&delay=400"); // the model takes its time, so a page load can come meanwhile
    const sending = messagesRoute
      .action(args(post(`/resources/chat/${test}/messages`, who, body), inIsolate(), { conversationId: test }))
      .then((response) => response.text());
    await new Promise((r) => setTimeout(r, 150));
    expect((await pageLoad(who))?.englishLevel).toBeNull(); // kept by this isolate, without a level
    expect(await sending).toContain("event: done");
    expect((await pageLoad(who))?.englishLevel).toBe("B2");
  });

  it("a chat exchange is ticked in Hoje on the next load of /, even when one during the reply kept the plan", async () => {
    const who = await learner(5);
    await db.update(users).set({ englishLevel: "B1" }).where(eq(users.id, who.id)); // the plan's chat: Tópico em Inglês
    const id = await open(who);
    const chatItem = async () => {
      const page = await call<{ today: TodayData }>(() => homeRoute.loader(args(request("/", { jar: who.jar }), inIsolate())));
      return page.data.today.items.find((item) => item.key === "chat");
    };
    expect(await chatItem()).toMatchObject({ done: false });
    await world.hook("mode=slow&delay=1500"); // the model takes its time (a slow machine too), so a load of / comes meanwhile
    const sending = send(who, id).then((response) => response.text());
    await new Promise((r) => setTimeout(r, 150));
    expect(await chatItem()).toMatchObject({ done: false }); // kept by this isolate, before the exchange
    expect(await sending).toContain("event: done");
    expect(await chatItem()).toMatchObject({ done: true });
  });

  it("pays from the renewed balance when a new month began since this isolate read the session", async () => {
    const { who, id } = await keptThenChanged(3, turnTheMonth);
    const response = await send(who, id);
    expect(response.status).toBe(200);
    expect((await events(response)).at(-1)!.event).toBe("done");
    expect(await balanceOf(who)).toBe(49);
    const reasons = (await db.select().from(creditLedger).where(eq(creditLedger.userId, who.id))).map((l) => l.reason);
    expect(reasons).toEqual([expect.stringMatching(/^monthly_renewal:/), "chat_message"]);
  });

  it("a greeting asks the model after one statement: the conversation, its lesson and whether it has begun", async () => {
    const who = await learner(5);
    const [mod] = await db.insert(modules).values({ title: "Módulo Saudação", orderIndex: 44 }).returning();
    const [lesson] = await db.insert(lessons).values({ moduleId: mod!.id, title: "Greetings", description: "Hi, hello" }).returning();
    const english = await open(who);
    const practice = (await startConversation(ctx(), who, { mode: "lesson", lessonId: lesson!.id })).id;
    const chatRequests = async () =>
      ((await (await fetch(`${API}/__ai/requests`)).json()) as { path: string; body: { messages: { content: string }[] } }[]).filter(
        (r) => r.path === "/v1/chat/completions",
      );
    await getFlags(inIsolate());
    await pageLoad(who); // this isolate knows the learner and the flags, as after the chat page's load
    for (const id of [english, practice]) {
      await world.hook("mode=slow&delay=300"); // the model holds its answer: what was sent before it is countable
      const asked = (await chatRequests()).length;
      const before = world.queryCount();
      const greeting = greetRoute.action(args(post(`/resources/chat/${id}/greet`, who), inIsolate(), { conversationId: id }));
      while ((await chatRequests()).length === asked) await new Promise((r) => setTimeout(r, 5));
      expect(world.queryCount() - before).toBe(1);
      expect((await events(await greeting)).at(-1)!.event).toBe("done");
    }
    expect((await chatRequests()).at(-1)!.body.messages[0]!.content).toContain("Greetings");
    const again = await greetRoute.action(args(post(`/resources/chat/${practice}/greet`, who), inIsolate(), { conversationId: practice }));
    expect(again.status).toBe(409);
    expect(await db.select().from(chatMessages).where(eq(chatMessages.conversationId, practice))).toHaveLength(1);
  });

  it("a greeting refuses an account blocked or a session ended since this isolate read it, asking no model", async () => {
    const greet = (who: Learner, id: string) =>
      greetRoute.action(args(post(`/resources/chat/${id}/greet`, who), inIsolate(), { conversationId: id }));
    const asked = async () => ((await (await fetch(`${API}/__ai/requests`)).json()) as unknown[]).length;
    const before = await asked();
    const { who: blockedLater, id } = await keptThenChanged(5, block);
    const blocked = await greet(blockedLater, id);
    expect([blocked.status, blocked.headers.get("Cache-Control")]).toEqual([403, "no-store"]);
    expect((await events(blocked))[0]!.data).toMatchObject({ code: "BLOCKED", status: 403 });

    const { who: signedOutLater, id: other } = await keptThenChanged(5, signOut);
    const ended = await greet(signedOutLater, other);
    expect(ended.status).toBe(401);
    expect((await events(ended))[0]!.data).toMatchObject({ code: "UNAUTHENTICATED", title: "Erro de Autenticação", status: 401 });
    expect(await asked()).toBe(before);
    expect(await db.select().from(chatMessages).where(eq(chatMessages.conversationId, id))).toEqual([]);
    expect(await db.select().from(chatMessages).where(eq(chatMessages.conversationId, other))).toEqual([]);

    // a new month since the isolate read it: the session is read again (the renewal) and the greeting goes ahead
    const { who: renewed, id: third } = await keptThenChanged(3, turnTheMonth);
    const greeted = await greet(renewed, third);
    expect(greeted.status).toBe(200);
    expect((await events(greeted)).at(-1)!.event).toBe("done");
    expect(await balanceOf(renewed)).toBe(50);
  });
});

describe("one greeting per conversation, however many requests ask at once", () => {
  const greet = (who: Learner, id: string) => greetRoute.action(args(post(`/resources/chat/${id}/greet`, who), ctx(), { conversationId: id }));
  const chatRequests = async () =>
    ((await (await fetch(`${API}/__ai/requests`)).json()) as { path: string }[]).filter((r) => r.path === "/v1/chat/completions").length;
  const greetings = (id: string) => db.select().from(chatMessages).where(eq(chatMessages.conversationId, id));
  const claimedSecondsAgo = (id: string, seconds: number | null) =>
    db
      .update(chatConversations)
      .set({ greetingClaimedAt: seconds === null ? null : new Date(Date.now() - seconds * 1000) })
      .where(eq(chatConversations.id, id));

  it("two tabs greeting at the same moment: the model is asked once, one greeting is stored, the other tab gets 409", async () => {
    const who = await learner(5);
    const id = await open(who);
    await world.hook("mode=slow&delay=300&count=2"); // both requests reach the database before either answer is stored
    const asked = await chatRequests();
    const answers = await Promise.all([greet(who, id), greet(who, id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect((await events(refused))[0]!.data).toMatchObject({ code: "ALREADY_STARTED", status: 409 });
    expect((await events(answers.find((a) => a.status === 200)!)).at(-1)!.event).toBe("done");
    expect(await chatRequests()).toBe(asked + 1);
    expect(await greetings(id)).toHaveLength(1);
  });

  it("a greeting the model could not give frees the conversation: the next try greets", async () => {
    const who = await learner(5);
    const id = await open(who);
    await world.hook("mode=error");
    expect((await greet(who, id)).status).toBe(502);
    expect(await greetings(id)).toEqual([]);
    const retried = await greet(who, id);
    expect(retried.status).toBe(200);
    expect((await events(retried)).at(-1)!.event).toBe("done");
    expect(await greetings(id)).toHaveLength(1);
  });

  it("a claim left by a request that died holds for two minutes, then the greeting can be taken again", async () => {
    const who = await learner(5);
    const id = await open(who);
    const asked = await chatRequests();
    await claimedSecondsAgo(id, GREETING_CLAIM_TTL_SECONDS - 5);
    expect((await greet(who, id)).status).toBe(409);
    expect(await chatRequests()).toBe(asked);
    await claimedSecondsAgo(id, GREETING_CLAIM_TTL_SECONDS + 5);
    expect((await greet(who, id)).status).toBe(200);
    expect(await chatRequests()).toBe(asked + 1);
    expect(await greetings(id)).toHaveLength(1);
  });

  it("a message sent from another tab while the greeting streams comes after the greeting, not before it", async () => {
    const who = await learner(5);
    const id = await open(who);
    await world.hook("mode=slow&delay=400"); // only the greeting waits; the message's reply comes at once
    const greeting = greet(who, id).then((response) => response.text());
    await new Promise((r) => setTimeout(r, 150));
    const sent = await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, { text: "hi" }), ctx(), { conversationId: id }));
    expect(await sent.text()).toContain("event: done");
    expect(await greeting).toContain("event: done");
    const stored = await db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.conversationId, id))
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
    expect(stored.map((m) => m.role)).toEqual(["nika", "user", "nika"]);
    // The fake model quotes the last user turn: the greeting's is the "start" cue, the reply's the learner's "hi".
    expect(stored.map((m) => m.text)).toEqual([expect.stringContaining('"start"'), "hi", expect.stringContaining('"hi"')]);
  });

  it("without JavaScript, while another tab holds the greeting, the page waits and asks again in 2 s instead of at once", async () => {
    const who = await learner(5);
    const id = await open(who);
    const load = (query: string) =>
      call<ChatPageData>(() =>
        modeRoute.loader(args(request(`/chat-with-nika/english?c=${id}${query}`, { jar: who.jar }), ctx(), { mode: "english" })),
      );
    await claimedSecondsAgo(id, 1);
    const waiting = await load("&greet=1");
    expect(waiting.status).toBe(200);
    expect([waiting.data.messages, waiting.data.greetingError, waiting.data.greetingRetrySeconds]).toEqual([[], null, 2]);
    expect((await load("")).data.greetingRetrySeconds).toBe(0);

    await claimedSecondsAgo(id, null); // the other tab's greeting failed and let go
    const greeted = await load("&greet=1");
    expect([greeted.status, greeted.location]).toEqual([302, `/chat-with-nika/english?c=${id}`]);
    expect(await greetings(id)).toHaveLength(1);
  });
});
