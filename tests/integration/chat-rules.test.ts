// Chat rules that a broken line must not get past (issue 8, item 11 — found by mutation testing):
// the mode's flag is checked again when a message is sent (in the same statement as the credit spend)
// and when Nika greets, lesson practice is never gated, and a missing flag row means "on".
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { toEventStream } from "~/features/chat/events.server";
import { greet } from "~/features/chat/greeting.server";
import { sendMessage, sendMessageStream } from "~/features/chat/sending.server";
import { assertModeEnabled, startConversation } from "~/features/conversation";
import { CHAT_MODE_INFO, type ChatModeId } from "~/features/conversation";
import { chatMessages } from "~/features/conversation/tables";
import { lessons, modules } from "~/features/courses/tables";
import { encodeWav } from "~/lib/audio/wav";
import * as greetRoute from "~/routes/resources+/chat.$conversationId.greet";
import { createSession } from "~/server/auth.server";
import { creditPeriod, getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import type { FlagKey } from "~/server/flags.server";
import { appConfig, creditLedger, users } from "~/server/schema";
import { chatError, useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, contextFor, request } from "./harness";

// A free port of its own (parallel runs and Stryker workers may run this file at once).
const PORT = await freePort();
const world = useChatWorld(PORT, "rules-openai-key");
let db: Database;
let n = 0;
beforeAll(() => {
  db = world.db;
});

const GATED = (Object.values(CHAT_MODE_INFO).filter((m) => m.flag) as { id: ChatModeId; flag: FlagKey }[]).map((m) => [m.id, m.flag] as const);
const CHAT_FLAGS = GATED.map(([, flag]) => flag);

async function setFlag(key: FlagKey, value: boolean) {
  await db.update(appConfig).set({ configValue: value }).where(eq(appConfig.configKey, key));
}
// Every test starts and ends with every chat flag on, whatever it asserted.
afterEach(async () => {
  for (const flag of CHAT_FLAGS) await setFlag(flag, true);
});

const ctx = () => world.ctx();
async function newUser(credits = 5) {
  const [user] = await db
    .insert(users)
    .values({ name: "Regras", email: `rules${++n}@example.com`, monthlyCredits: credits, creditsPeriod: creditPeriod(new Date()) })
    .returning();
  return user!;
}
const messagesOf = (conversationId: string) => db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversationId));
type AiRequest = { path: string };
const aiRequests = async () => (await (await fetch(`${world.api}/__ai/requests`)).json()) as AiRequest[];
const ledgerOf = (userId: string) => db.select().from(creditLedger).where(eq(creditLedger.userId, userId));
const wav = () => ({
  bytes: encodeWav(
    new Float32Array(8000).map((_, i) => 0.3 * Math.sin(i / 5)),
    16000,
  ),
  mimeType: "audio/wav",
});

describe("the mode's flag when a message is sent", () => {
  it.each(GATED)("refuses %s once %s is turned off after the conversation started: 403, nothing spent, stored or asked", async (mode, flag) => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode });
    await setFlag(flag, false);
    const error = await chatError(sendMessage(ctx(), user, conversation.id, { text: "Hello there" }));
    expect([error.status, error.code, error.message]).toEqual([403, "feature_disabled", "Recurso Temporariamente Indisponível"]);
    expect(await getBalance(db, user.id)).toBe(5);
    expect(await ledgerOf(user.id)).toEqual([]);
    expect(await messagesOf(conversation.id)).toEqual([]);
    expect(await aiRequests()).toEqual([]);
  });

  it("refuses a voice message of a disabled mode before transcribing it", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "roleplay" });
    await setFlag("feature_chat_roleplay", false);
    const error = await chatError(sendMessage(ctx(), user, conversation.id, { audio: wav() }));
    expect([error.status, error.code]).toEqual([403, "feature_disabled"]);
    expect(await getBalance(db, user.id)).toBe(5);
    expect(await aiRequests()).toEqual([]);
  });

  it("answers the streaming route's 403 before any token (toEventStream)", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await setFlag("feature_chat_english", false);
    const response = await toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: "hi" }));
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(
      `event: error\ndata: ${JSON.stringify({ code: "feature_disabled", message: "Recurso Temporariamente Indisponível", status: 403 })}\n\n`,
    );
    expect(await getBalance(db, user.id)).toBe(5);
  });

  it("reads the flag of the conversation's own mode only", async () => {
    for (const [mode, ownFlag] of GATED) {
      const user = await newUser(2);
      const conversation = await startConversation(ctx(), user, { mode });
      for (const flag of CHAT_FLAGS) await setFlag(flag, flag === ownFlag);
      const result = await sendMessage(ctx(), user, conversation.id, { text: `still on in ${mode}` });
      expect([mode, result.status]).toEqual([mode, "ok"]);
      expect(await getBalance(db, user.id)).toBe(1);
      for (const flag of CHAT_FLAGS) await setFlag(flag, true);
    }
  });

  it("never gates lesson practice, even with every chat flag off", async () => {
    const [mod] = await db.insert(modules).values({ title: "Módulo Regras", orderIndex: 7 }).returning();
    const [lesson] = await db.insert(lessons).values({ moduleId: mod!.id, title: "Phrasal verbs" }).returning();
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "lesson", lessonId: lesson!.id });
    for (const flag of CHAT_FLAGS) await setFlag(flag, false);
    expect((await greet(ctx(), user, conversation.id)).status).toBe("ok");
    expect((await sendMessage(ctx(), user, conversation.id, { text: "I give up smoking" })).status).toBe("ok");
    expect(await getBalance(db, user.id)).toBe(2);
  });

  it("counts a flag without a row as on (spec §9 default)", async () => {
    const [row] = await db.select().from(appConfig).where(eq(appConfig.configKey, "feature_chat_game"));
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "game" });
    await db.delete(appConfig).where(eq(appConfig.configKey, "feature_chat_game"));
    try {
      expect((await sendMessage(ctx(), user, conversation.id, { text: "Let's play" })).status).toBe("ok");
      expect(await getBalance(db, user.id)).toBe(2);
    } finally {
      await db.insert(appConfig).values(row!).onConflictDoNothing();
    }
  });
});

describe("the mode's flag when Nika greets", () => {
  async function signedIn(credits = 5) {
    const user = await newUser(credits);
    const cookie = (await createSession(contextFor(db), user.id, request("/"))).split(";")[0]!;
    return { user, cookie };
  }
  const greetPost = (id: string, cookie: string) =>
    greetRoute.action(
      args(new Request(`http://nika.test/resources/chat/${id}/greet`, { method: "POST", headers: { Cookie: cookie } }), ctx(), {
        conversationId: id,
      }),
    );

  it("the greet route answers 403 for a disabled mode, stores nothing and asks no model", async () => {
    const { user, cookie } = await signedIn();
    const conversation = await startConversation(ctx(), user, { mode: "portuguese" });
    await setFlag("feature_chat_portuguese", false);
    const refused = await greetPost(conversation.id, cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('"code":"feature_disabled"');
    expect(await messagesOf(conversation.id)).toEqual([]);
    expect(await aiRequests()).toEqual([]);

    await setFlag("feature_chat_portuguese", true);
    const greeted = await greetPost(conversation.id, cookie);
    expect(greeted.status).toBe(200);
    expect(await greeted.text()).toContain("event: done");
    expect((await messagesOf(conversation.id)).map((m) => m.role)).toEqual(["nika"]);
    expect(await getBalance(db, user.id)).toBe(5);
  });

  it("assertModeEnabled follows each mode's own flag and never gates lesson practice", async () => {
    for (const [mode, flag] of GATED) {
      await expect(assertModeEnabled(ctx(), mode)).resolves.toBeUndefined();
      await setFlag(flag, false);
      const error = await chatError(assertModeEnabled(ctx(), mode));
      expect([mode, error.status, error.code]).toEqual([mode, 403, "feature_disabled"]);
      for (const [other] of GATED.filter(([m]) => m !== mode)) await expect(assertModeEnabled(ctx(), other)).resolves.toBeUndefined();
      await setFlag(flag, true);
    }
    for (const flag of CHAT_FLAGS) await setFlag(flag, false);
    await expect(assertModeEnabled(ctx(), "lesson")).resolves.toBeUndefined();
  });
});
