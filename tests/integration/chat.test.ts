import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ChatError, CREDITS_EXHAUSTED, greet, greetStream, loadConversation, sendMessage, sendMessageStream, startConversation, toEventStream,
  type SendResult,
} from "~/features/chat/chat.server";
import { systemPrompt } from "~/features/chat/prompts";
import { NIKA_UNAVAILABLE } from "~/server/ai/index.server";
import { getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { appConfig, chatMessages, creditLedger, lessons, modules, users } from "~/server/schema";
import { contextFor, createTestDb } from "./harness";
import { startFakeUpstream } from "./fake-upstream";

// Chat with Nika against the fake upstream speaking the OpenAI protocol (its own port).
const PORT = 4051;
const API = `http://127.0.0.1:${PORT}`;
const KEY = "chat-openai-key";
const AI_ENV = { OPENAI_BASE_URL: `${API}/v1`, OPENAI_API_KEY: KEY, OPENAI_CHAT_MODEL: "fake-chat" };
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let db: Database;
let n = 0;

beforeAll(async () => {
  upstream = await startFakeUpstream(PORT, ["--openai-key", KEY]);
  ({ db } = await createTestDb());
});
afterAll(() => upstream?.stop());
beforeEach(async () => {
  await fetch(`${API}/__ai/reset`, { method: "POST" });
});

const ctx = (env: Record<string, string | undefined> = AI_ENV) => contextFor(db, env);
const hook = (query: string) => fetch(`${API}/__ai/next?${query}`, { method: "POST" });
const requests = async () => (await (await fetch(`${API}/__ai/requests`)).json()) as { path: string; body: { messages: { role: string; content: string }[]; max_tokens: number } }[];

async function newUser(credits = 10) {
  const [user] = await db.insert(users).values({ name: "Chat Tester", email: `chat${++n}@example.com`, monthlyCredits: credits }).returning();
  return user!;
}
const messagesOf = (conversationId: string) =>
  db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversationId)).orderBy(chatMessages.createdAt);
async function chatError(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ChatError);
  return error as ChatError;
}

describe("conversations", () => {
  it("starts a conversation and counts it in conversations_started", async () => {
    const user = await newUser();
    const first = await startConversation(ctx(), user, { mode: "english" });
    await startConversation(ctx(), user, { mode: "game" });
    expect(first).toMatchObject({ userId: user.id, mode: "english", lessonId: null });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.conversationsStarted).toBe(2);
  });

  it("rejects unknown modes, unknown lessons and modes whose flag is off", async () => {
    const user = await newUser();
    expect((await chatError(startConversation(ctx(), user, { mode: "karaoke" }))).status).toBe(400);
    expect((await chatError(startConversation(ctx(), user, { mode: "lesson", lessonId: crypto.randomUUID() }))).status).toBe(404);
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_chat_roleplay"));
    try {
      const error = await chatError(startConversation(ctx(), user, { mode: "roleplay" }));
      expect([error.status, error.code]).toEqual([403, "feature_disabled"]);
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_chat_roleplay"));
    }
  });

  it("greets for free, once, with the lesson as context", async () => {
    const user = await newUser(3);
    const [mod] = await db.insert(modules).values({ title: "Módulo 1", orderIndex: 1 }).returning();
    const [lesson] = await db.insert(lessons).values({ moduleId: mod!.id, title: "Present Perfect", description: "Have you ever…?" }).returning();
    const conversation = await startConversation(ctx(), user, { mode: "lesson", lessonId: lesson!.id });
    const tokens: string[] = [];
    const result = await greet(ctx(), conversation, { onToken: (t) => tokens.push(t) });
    expect(result.status).toBe("ok");
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(await getBalance(db, user.id)).toBe(3);
    const [sent] = await requests();
    expect(sent!.body.messages[0]).toEqual({ role: "system", content: systemPrompt("lesson", { title: "Present Perfect", description: "Have you ever…?" }) });
    expect(sent!.body.messages.at(-1)).toEqual({ role: "user", content: "start" });
    expect(await greet(ctx(), conversation)).toEqual({ status: "already_started" });
    const { messages } = await loadConversation(ctx(), user, conversation.id);
    expect(messages.map((m) => m.role)).toEqual(["nika"]);
  });

  it("loads only the owner's conversation (404 otherwise)", async () => {
    const owner = await newUser();
    const other = await newUser();
    const conversation = await startConversation(ctx(), owner, { mode: "english" });
    expect((await loadConversation(ctx(), owner, conversation.id)).conversation.id).toBe(conversation.id);
    expect((await chatError(loadConversation(ctx(), other, conversation.id))).status).toBe(404);
    expect((await chatError(loadConversation(ctx(), owner, "not-a-uuid"))).status).toBe(404);
    expect((await chatError(sendMessage(ctx(), other, conversation.id, { text: "hi" }))).status).toBe(404);
    expect(await getBalance(db, other.id)).toBe(10);
  });
});

describe("sendMessage", () => {
  it("spends 1 credit, streams the reply in pieces and stores both messages", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await greet(ctx(), conversation);
    const tokens: string[] = [];
    const result = await sendMessage(ctx(), user, conversation.id, { text: "  I like football \n" }, { onToken: (t) => tokens.push(t) });
    expect(result.status).toBe("ok");
    const ok = result as Extract<SendResult, { status: "ok" }>;
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(tokens.join("")).toBe(ok.reply.text);
    expect(ok.reply).toMatchObject({ text: 'Você disse: "I like football". Muito bem, continue praticando!', audioUrl: null });
    expect(ok.balance).toBe(4);
    expect(await getBalance(db, user.id)).toBe(4);
    const { messages } = await loadConversation(ctx(), user, conversation.id);
    expect(messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ["nika", expect.stringContaining("start"), "complete"],
      ["user", "I like football", "complete"],
      ["nika", ok.reply.text, "complete"],
    ]);
    // history went along: system, Nika's greeting (assistant), the new text
    const sent = (await requests()).at(-1)!.body;
    expect(sent.max_tokens).toBe(400);
    expect(sent.messages.map((m) => m.role)).toEqual(["system", "assistant", "user"]);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger.map((l) => [l.delta, l.reason])).toEqual([[-1, "chat_message"]]);
  });

  it("validates the text before anything else (400, nothing spent)", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    for (const text of ["", "   \n ", "x".repeat(5001), 42]) {
      const error = await chatError(sendMessage(ctx(), user, conversation.id, { text }));
      expect([error.status, error.code]).toEqual([400, "invalid_text"]);
    }
    expect((await sendMessage(ctx(), user, conversation.id, { text: ` ${"x".repeat(5000)} ` })).status).toBe("ok");
    expect(await getBalance(db, user.id)).toBe(4);
  });

  it.each([
    ["timeout", "mode=slow&delay=1500", "timeout"],
    ["malformed stream", "mode=malformed", "bad_response"],
    ["server error", "mode=error", "unreachable"],
  ])("refunds and stores no Nika message on a provider %s", async (_label, query, kind) => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await hook(query);
    const result = await sendMessage(ctx(), user, conversation.id, { text: "hello" }, { providerOptions: { chatTimeoutMs: 300 } });
    expect(result).toEqual({
      status: "provider_error", code: "PROVIDER_ERROR", kind, title: "Erro de Conexão", message: "Não foi possível se comunicar com o servidor",
    });
    expect(await getBalance(db, user.id)).toBe(5);
    const rows = await messagesOf(conversation.id);
    expect(rows.map((m) => [m.role, m.status])).toEqual([["user", "failed"]]);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger.map((l) => [l.delta, l.reason]).sort()).toEqual([[-1, "chat_message"], [1, "refund:provider_failed"]].sort());
    // the failed turn is left out of the next request's history
    await sendMessage(ctx(), user, conversation.id, { text: "again" });
    expect((await requests()).at(-1)!.body.messages.map((m) => m.content).slice(1)).toEqual(["again"]);
  });

  it("says Nika is unavailable without a provider and spends nothing", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx({}), user, { mode: "english" });
    expect(await greet(ctx({}), conversation)).toEqual({ status: "unavailable", code: "NIKA_UNAVAILABLE", message: NIKA_UNAVAILABLE });
    expect(await sendMessage(ctx({}), user, conversation.id, { text: "hello" })).toMatchObject({ status: "unavailable", message: "Nika não está disponível" });
    expect(await getBalance(db, user.id)).toBe(5);
    expect(await messagesOf(conversation.id)).toEqual([]);
  });

  it("refuses with CREDITS_EXHAUSTED at zero, storing nothing", async () => {
    const user = await newUser(0);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    expect(await sendMessage(ctx(), user, conversation.id, { text: "hello" })).toEqual({ status: "credits_exhausted", code: CREDITS_EXHAUSTED, balance: 0 });
    expect(await messagesOf(conversation.id)).toEqual([]);
    expect(await requests()).toEqual([]);
  });

  it("gives exactly 10 replies and 40 CREDITS_EXHAUSTED for 50 parallel messages on 10 credits", async () => {
    const user = await newUser(10);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => sendMessage(ctx(), user, conversation.id, { text: `message ${i}` })),
    );
    expect(results.filter((r) => r.status === "ok")).toHaveLength(10);
    expect(results.filter((r) => r.status === "credits_exhausted")).toHaveLength(40);
    expect(await getBalance(db, user.id)).toBe(0);
    const rows = await messagesOf(conversation.id);
    expect(rows.filter((m) => m.role === "user")).toHaveLength(10);
    expect(rows.filter((m) => m.role === "nika")).toHaveLength(10);
    expect((await requests()).filter((r) => r.path === "/v1/chat/completions")).toHaveLength(10);
  });

  it("stores the English level from the test's marker and keeps the clean text", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "english-test" });
    const tokens: string[] = [];
    // the fake model echoes the learner's text, so this makes its reply carry the marker
    const result = await sendMessage(ctx(), user, conversation.id, { text: "\n[[NIKA_LEVEL:b2]]\n" }, { onToken: (t) => tokens.push(t) });
    expect(result).toMatchObject({ status: "ok", englishLevel: "B2" });
    const ok = result as Extract<SendResult, { status: "ok" }>;
    expect(ok.reply.text).not.toContain("NIKA_LEVEL");
    expect(tokens.join("")).not.toContain("NIKA_LEVEL");
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.englishLevel).toBe("B2");
    expect(row!.englishLevelAt).toBeInstanceOf(Date);
    const [stored] = await db.select().from(chatMessages).where(and(eq(chatMessages.conversationId, conversation.id), eq(chatMessages.role, "nika")));
    expect(stored!.text).toBe(ok.reply.text);

    // the same marker in another mode is just text
    const other = await newUser(5);
    const english = await startConversation(ctx(), other, { mode: "english" });
    expect(await sendMessage(ctx(), other, english.id, { text: "[[NIKA_LEVEL:C2]]" })).toMatchObject({ englishLevel: null });
    expect((await db.select().from(users).where(eq(users.id, other.id)))[0]!.englishLevel).toBeNull();
  });
});

describe("toEventStream", () => {
  const parse = (body: string) =>
    body.trim().split("\n\n").map((block) => {
      const [event, data] = block.split("\n");
      return { event: event!.replace("event: ", ""), data: JSON.parse(data!.replace("data: ", "")) as Record<string, unknown> };
    });

  it("streams tokens then done", async () => {
    const user = await newUser(2);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const response = toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: "I like football" }));
    expect(response.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
    const events = parse(await response.text());
    const tokens = events.filter((e) => e.event === "token");
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    expect(done.data).toMatchObject({ text: tokens.map((t) => t.data.t).join(""), audioUrl: null, englishLevel: null });
    expect(typeof done.data.id).toBe("string");
  });

  it("ends with an error event for credits, validation and greet outcomes", async () => {
    const user = await newUser(0);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const exhausted = parse(await toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: "hi" })).text());
    expect(exhausted).toEqual([{ event: "error", data: { code: "CREDITS_EXHAUSTED", message: "Seus créditos acabaram." } }]);
    const invalid = parse(await toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: " " })).text());
    expect(invalid).toEqual([{ event: "error", data: { code: "invalid_text", message: "Digite uma mensagem.", status: 400 } }]);
    const greeting = parse(await toEventStream(greetStream(ctx(), conversation)).text());
    expect(greeting.at(-1)!.event).toBe("done");
    await hook("mode=error");
    const other = await startConversation(ctx(), user, { mode: "game" });
    const failed = parse(await toEventStream(greetStream(ctx(), other)).text());
    expect(failed).toEqual([{ event: "error", data: { code: "PROVIDER_ERROR", title: "Erro de Conexão", message: "Não foi possível se comunicar com o servidor" } }]);
  });
});
