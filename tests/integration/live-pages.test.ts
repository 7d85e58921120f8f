// Conversa ao vivo's entry and pages through their routes: the entry is on every chat mode and lesson practice when a
// realtime provider is configured and feature_chat_live is on, and nowhere else; its page has the chat's guards.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatPageData } from "~/features/chat/types";
import { lessons, modules } from "~/features/courses/tables";
import { liveEntryAvailable } from "~/features/live";
import type { LivePageData } from "~/features/live/page.server";
import * as modeRoute from "~/routes/_app+/_chat+/chat-with-nika.$mode";
import * as liveModeRoute from "~/routes/_app+/_chat+/chat-with-nika.$mode_.ao-vivo";
import * as lessonRoute from "~/routes/_app+/_chat+/chat.lesson.$lessonKey";
import * as liveLessonRoute from "~/routes/_app+/_chat+/chat.lesson.$lessonKey_.ao-vivo";
import { createSession } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import { appConfig, users } from "~/server/schema";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, call, contextFor, CookieJar, request } from "./harness";

const world = useChatWorld(await freePort(), "live-pages-openai-key");
const LIVE_ENV = { OPENAI_REALTIME_URL: "wss://realtime.example/v1/realtime", OPENAI_REALTIME_MODEL: "gpt-realtime" };
const ctx = (live = true) => world.ctx({ ...world.aiEnv, ...(live ? LIVE_ENV : {}) });
const setLiveFlag = (on: boolean) => world.db.update(appConfig).set({ configValue: on }).where(eq(appConfig.configKey, "feature_chat_live"));
afterEach(() => setLiveFlag(true));

let n = 0;
async function learner() {
  const [user] = await world.db
    .insert(users)
    .values({ name: "Ao vivo", email: `live-pages${++n}@example.com`, monthlyCredits: 7, creditsPeriod: creditPeriod(new Date()) })
    .returning();
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(world.db), user!.id, request("/")) }));
  return { id: user!.id, jar };
}

async function openMode(who: Awaited<ReturnType<typeof learner>>, mode: string, live = true) {
  const started = await call(() => modeRoute.loader(args(request(`/chat-with-nika/${mode}`, { jar: who.jar }), ctx(live), { mode })));
  const path = started.location!;
  const page = await call<ChatPageData>(() => modeRoute.loader(args(request(path, { jar: who.jar }), ctx(live), { mode })));
  return page.data;
}

describe("the Conversa ao vivo entry", () => {
  it("is on each of the four modes, pointing at this conversation's live page", async () => {
    const who = await learner();
    for (const mode of ["portuguese", "english", "game", "roleplay"]) {
      const page = await openMode(who, mode);
      expect(page.liveHref).toBe(`/chat-with-nika/${mode}/ao-vivo?c=${page.conversationId}`);
    }
  });

  it("is absent without a realtime provider, with feature_chat_live off, and on the level test", async () => {
    const who = await learner();
    expect((await openMode(who, "english", false)).liveHref).toBeNull();
    await setLiveFlag(false);
    expect((await openMode(who, "english")).liveHref).toBeNull();
    await setLiveFlag(true);
    // The level test is a chat too, but not a live one.
    expect(liveEntryAvailable({ ...world.aiEnv, ...LIVE_ENV }, true, "english-test")).toBe(false);
    expect(liveEntryAvailable({ ...world.aiEnv, ...LIVE_ENV }, true, "lesson")).toBe(true);
  });
});

describe("the live page", () => {
  it("shows the conversation's mode, the way back to its chat and the credits", async () => {
    const who = await learner();
    const chat = await openMode(who, "roleplay");
    const page = await call<LivePageData>(() =>
      liveModeRoute.loader(args(request(chat.liveHref!, { jar: who.jar }), ctx(), { mode: "roleplay" })),
    );
    expect(page.data).toEqual({
      conversationId: chat.conversationId,
      modeTitle: "Role Play",
      chatHref: `/chat-with-nika/roleplay?c=${chat.conversationId}`,
      reportHref: `/conversas/${chat.conversationId}/resumo`,
      creditsPerMinute: 1,
      balance: 7,
      buyHref: "/comprar-creditos",
    });
  });

  it("has the chat's guards: anonymous → sign in, another learner's conversation or mode → 404, flag off → 403, no provider → 404", async () => {
    const who = await learner();
    const chat = await openMode(who, "english");
    const load = (path: string, jar?: CookieJar, live = true, mode = "english") =>
      call(() => liveModeRoute.loader(args(request(path, jar ? { jar } : {}), ctx(live), { mode })));
    expect((await load(chat.liveHref!)).status).toBe(302);
    expect((await load(chat.liveHref!, (await learner()).jar)).status).toBe(404);
    expect((await load(`/chat-with-nika/game/ao-vivo?c=${chat.conversationId}`, who.jar, true, "game")).status).toBe(404);
    expect((await load(chat.liveHref!, who.jar, false)).status).toBe(404);
    await setLiveFlag(false);
    expect((await load(chat.liveHref!, who.jar)).status).toBe(403);
    await setLiveFlag(true);
    // Without a conversation, the chat starts one (its page links back here).
    expect(await load("/chat-with-nika/english/ao-vivo", who.jar)).toMatchObject({ status: 302, location: "/chat-with-nika/english" });
  });

  it("is on lesson practice too, with the lesson as its title", async () => {
    const who = await learner();
    const [mod] = await world.db.insert(modules).values({ title: "Módulo Ao Vivo", orderIndex: 52 }).returning();
    await world.db.insert(lessons).values({ moduleId: mod!.id, title: "At the airport", orderIndex: 4 });
    const started = await call(() => lessonRoute.loader(args(request("/chat/lesson/M52A04", { jar: who.jar }), ctx(), { lessonKey: "M52A04" })));
    const chat = await call<ChatPageData>(() =>
      lessonRoute.loader(args(request(started.location!, { jar: who.jar }), ctx(), { lessonKey: "M52A04" })),
    );
    expect(chat.data.liveHref).toBe(`/chat/lesson/M52A04/ao-vivo?c=${chat.data.conversationId}`);
    const page = await call<LivePageData>(() =>
      liveLessonRoute.loader(args(request(chat.data.liveHref!, { jar: who.jar }), ctx(), { lessonKey: "M52A04" })),
    );
    expect(page.data).toMatchObject({ modeTitle: "At the airport", chatHref: `/chat/lesson/M52A04?c=${chat.data.conversationId}` });
  });
});
