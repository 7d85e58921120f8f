import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { toEventStream } from "~/features/chat/events.server";
import { greet, greetConversationStream } from "~/features/chat/greeting.server";
import { CREDITS_EXHAUSTED, sendMessage, sendMessageStream, type SendResult } from "~/features/chat/sending.server";
import { findOwnedConversation, loadConversation, startConversation, systemPrompt } from "~/features/conversation";
import { chatMessages } from "~/features/conversation/tables";
import { lessons, modules } from "~/features/courses/tables";
import { encodeWav } from "~/lib/audio/wav";
import { NIKA_UNAVAILABLE } from "~/server/ai/index.server";
import { getBalance } from "~/server/credits.server";
import { DatabaseUnavailableError, type Database } from "~/server/db.server";
import { appConfig, creditLedger, users } from "~/server/schema";
import { chatError, useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";

// Chat with Nika against the fake upstream speaking the OpenAI protocol (its own port).
// A free port of its own (parallel runs and Stryker workers may run this file at once).
const PORT = await freePort();
const world = useChatWorld(PORT, "chat-openai-key");
const API = world.api;
let db: Database;
let media: ReturnType<typeof useChatWorld>["media"];
let n = 0;
beforeAll(() => {
  ({ db, media } = world);
});

const ctx = (env: Record<string, string | undefined> = world.aiEnv) => world.ctx(env);
const AUDIO_URL = expect.stringMatching(/^\/resources\/chat-audio\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.mp3$/);
const hook = world.hook;
type AiRequest = { path: string; body: { messages: { role: string; content: string }[]; max_tokens: number; input?: string } };
const allRequests = async () => (await (await fetch(`${API}/__ai/requests`)).json()) as AiRequest[];
/** What the chat endpoint received (text-to-speech calls are checked separately). */
const requests = async () => (await allRequests()).filter((r) => r.path === "/v1/chat/completions");

async function newUser(credits = 10) {
  const [user] = await db
    .insert(users)
    .values({ name: "Chat Tester", email: `chat${++n}@example.com`, monthlyCredits: credits })
    .returning();
  return user!;
}
/** Runs `body` while the database refuses every learner message of `userId` (a trigger), then lifts it. */
async function refuseUserMessagesFrom(userId: string, body: () => Promise<void>) {
  await db.execute(
    sql.raw(`
    create or replace function refuse_user_messages() returns trigger language plpgsql as $$
    begin
      if new.role = 'user' and exists (select 1 from chat_conversations c where c.id = new.conversation_id and c.user_id = '${userId}') then
        raise exception 'user messages refused';
      end if;
      return new;
    end $$`),
  );
  await db.execute(
    sql.raw(`
    create trigger refuse_user_messages before insert on chat_messages for each row execute function refuse_user_messages();`),
  );
  try {
    await body();
  } finally {
    await db.execute(sql.raw("drop trigger refuse_user_messages on chat_messages"));
  }
}
const messagesOf = (conversationId: string) =>
  db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversationId)).orderBy(chatMessages.createdAt);

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
      expect([error.status, error.code, error.message]).toEqual([403, "feature_disabled", "Recurso Temporariamente Indisponível"]);
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_chat_roleplay"));
    }
  });

  it("greets for free, once, with the lesson as context", async () => {
    const user = await newUser(3);
    const [mod] = await db.insert(modules).values({ title: "Módulo 1", orderIndex: 1 }).returning();
    const [lesson] = await db
      .insert(lessons)
      .values({ moduleId: mod!.id, title: "Present Perfect", description: "Have you ever…?" })
      .returning();
    const conversation = await startConversation(ctx(), user, { mode: "lesson", lessonId: lesson!.id });
    const tokens: string[] = [];
    const result = await greet(ctx(), user, conversation.id, { onToken: (t) => tokens.push(t) });
    expect(result.status).toBe("ok");
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(await getBalance(db, user.id)).toBe(3);
    const [sent] = await requests();
    expect(sent!.body.messages[0]).toEqual({
      role: "system",
      content: systemPrompt("lesson", { title: "Present Perfect", description: "Have you ever…?" }),
    });
    expect(sent!.body.messages.at(-1)).toEqual({ role: "user", content: "start" });
    expect(await greet(ctx(), user, conversation.id)).toEqual({ status: "already_started" });
    const { messages } = await loadConversation(ctx(), user, conversation.id);
    expect(messages.map((m) => m.role)).toEqual(["nika"]);

    // the lesson stays the context: the conversation as the page loads it, and a message sent to it
    expect((await findOwnedConversation(ctx(), user, conversation.id)).lesson).toEqual({
      title: "Present Perfect",
      description: "Have you ever…?",
    });
    expect((await sendMessage(ctx(), user, conversation.id, { text: "I have been to Rio" })).status).toBe("ok");
    const [, reply] = await requests();
    expect(reply!.body.messages[0]).toEqual({
      role: "system",
      content: systemPrompt("lesson", { title: "Present Perfect", description: "Have you ever…?" }),
    });
    expect(reply!.body.messages.at(-1)).toEqual({ role: "user", content: "I have been to Rio" });
  });

  it("loads only the owner's conversation (404 otherwise)", async () => {
    const owner = await newUser();
    const other = await newUser();
    const conversation = await startConversation(ctx(), owner, { mode: "english" });
    expect((await loadConversation(ctx(), owner, conversation.id)).conversation.id).toBe(conversation.id);
    expect((await findOwnedConversation(ctx(), owner, conversation.id)).lesson).toBeNull();
    const notFound = [404, "not_found", "Conversa não encontrada"];
    const refusal = async (promise: Promise<unknown>) => {
      const error = await chatError(promise);
      return [error.status, error.code, error.message];
    };
    expect(await refusal(loadConversation(ctx(), other, conversation.id))).toEqual(notFound);
    expect(await refusal(loadConversation(ctx(), owner, "not-a-uuid"))).toEqual(notFound);
    expect(await refusal(sendMessage(ctx(), other, conversation.id, { text: "hi" }))).toEqual(notFound);
    expect(await refusal(sendMessage(ctx(), owner, "not-a-uuid", { text: "hi" }))).toEqual(notFound);
    expect(await getBalance(db, other.id)).toBe(10);
    expect(await getBalance(db, owner.id)).toBe(10);
  });

  it("a lesson conversation whose lesson was deleted goes on without it (the prompt names 'a aula')", async () => {
    const user = await newUser(3);
    const [mod] = await db.insert(modules).values({ title: "Módulo apagado", orderIndex: 99 }).returning();
    const [lesson] = await db.insert(lessons).values({ moduleId: mod!.id, title: "Gone", description: "Soon deleted" }).returning();
    const conversation = await startConversation(ctx(), user, { mode: "lesson", lessonId: lesson!.id });
    await db.delete(lessons).where(eq(lessons.id, lesson!.id));
    expect((await findOwnedConversation(ctx(), user, conversation.id)).lesson).toBeNull();
    expect((await sendMessage(ctx(), user, conversation.id, { text: "hello" })).status).toBe("ok");
    const [sent] = await requests();
    expect(sent!.body.messages[0]).toEqual({ role: "system", content: systemPrompt("lesson", undefined) });
    expect(sent!.body.messages[0]!.content).toContain('"a aula"');
  });
});

describe("sendMessage", () => {
  it("spends 1 credit, streams the reply in pieces and stores both messages", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await greet(ctx(), user, conversation.id);
    const tokens: string[] = [];
    const events: unknown[] = [];
    const result = await sendMessage(
      ctx(),
      user,
      conversation.id,
      { text: "  I like football \n" },
      { onToken: (t) => tokens.push(t), onEvent: (e) => events.push(e) },
    );
    expect(events).toEqual([]); // a typed message has no transcription to show
    expect(result.status).toBe("ok");
    const ok = result as Extract<SendResult, { status: "ok" }>;
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(tokens.join("")).toBe(ok.reply.text);
    expect(ok.reply).toMatchObject({ text: 'Você disse: "I like football". Muito bem, continue praticando!', audioUrl: AUDIO_URL });
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
    // form posts send CRLF line breaks: stored (and sent to the model) as LF
    await sendMessage(ctx(), user, conversation.id, { text: "line one\r\nline two" });
    expect((await messagesOf(conversation.id)).filter((m) => m.role === "user").at(-1)!.text).toBe("line one\nline two");
  });

  it.each([
    ["timeout", "mode=slow&delay=1500", "timeout"],
    ["stall mid-stream (one token, then nothing)", "mode=stall&delay=1500", "timeout"],
    ["malformed stream", "mode=malformed", "bad_response"],
    ["server error", "mode=error", "unreachable"],
  ])("refunds and stores no Nika message on a provider %s", async (_label, query, kind) => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await hook(query);
    const result = await sendMessage(ctx(), user, conversation.id, { text: "hello" }, { providerOptions: { chatTimeoutMs: 300 } });
    expect(result).toEqual({
      status: "provider_error",
      code: "PROVIDER_ERROR",
      kind,
      title: "Erro de Conexão",
      message: "Não foi possível se comunicar com o servidor",
    });
    expect(await getBalance(db, user.id)).toBe(5);
    const rows = await messagesOf(conversation.id);
    expect(rows.map((m) => [m.role, m.status])).toEqual([["user", "failed"]]);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger.map((l) => [l.delta, l.reason]).sort()).toEqual(
      [
        [-1, "chat_message"],
        [1, "refund:provider_failed"],
      ].sort(),
    );
    // the spend and its refund name the (failed) learner message they were for
    expect(ledger.map((l) => l.ref)).toEqual([rows[0]!.id, rows[0]!.id]);
    // the failed turn is left out of the next request's history
    await sendMessage(ctx(), user, conversation.id, { text: "again" });
    expect(
      (await requests())
        .at(-1)!
        .body.messages.map((m) => m.content)
        .slice(1),
    ).toEqual(["again"]);
  });

  it("says Nika is unavailable without a provider and spends nothing", async () => {
    const user = await newUser(5);
    const conversation = await startConversation(ctx({}), user, { mode: "english" });
    expect(await greet(ctx({}), user, conversation.id)).toEqual({
      status: "unavailable",
      code: "NIKA_UNAVAILABLE",
      message: NIKA_UNAVAILABLE,
    });
    expect(await sendMessage(ctx({}), user, conversation.id, { text: "hello" })).toMatchObject({
      status: "unavailable",
      message: "Nika não está disponível",
    });
    expect(await getBalance(db, user.id)).toBe(5);
    expect(await messagesOf(conversation.id)).toEqual([]);
  });

  it("refuses with CREDITS_EXHAUSTED at zero, storing nothing", async () => {
    const user = await newUser(0);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    expect(await sendMessage(ctx(), user, conversation.id, { text: "hello" })).toEqual({
      status: "credits_exhausted",
      code: CREDITS_EXHAUSTED,
      balance: 0,
    });
    expect(await messagesOf(conversation.id)).toEqual([]);
    expect(await requests()).toEqual([]);
  });

  it("gives the credit back and surfaces the error when the learner's message cannot be stored", async () => {
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await refuseUserMessagesFrom(user.id, async () => {
      const failure = await sendMessage(ctx(), user, conversation.id, { text: "hello" }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(String((failure as Error).cause)).toContain("user messages refused");
    });
    expect(await getBalance(db, user.id)).toBe(3);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id)).orderBy(creditLedger.createdAt);
    expect(ledger.map((l) => [l.delta, l.reason])).toEqual([
      [-1, "chat_message"],
      [1, "refund:server_error"],
    ]);
    expect(await messagesOf(conversation.id)).toEqual([]);
  });

  it("gives exactly 10 replies and 40 CREDITS_EXHAUSTED for 50 parallel messages on 10 credits", async () => {
    const user = await newUser(10);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => sendMessage(ctx(), user, conversation.id, { text: `message ${i}` })));
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
    const [stored] = await db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.conversationId, conversation.id), eq(chatMessages.role, "nika")));
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
    body
      .trim()
      .split("\n\n")
      .map((block) => {
        const [event, data] = block.split("\n");
        return { event: event!.replace("event: ", ""), data: JSON.parse(data!.replace("data: ", "")) as Record<string, unknown> };
      });

  it("answers a database outage before the first token as 503 with its message, not a server error", async () => {
    // eslint-disable-next-line require-yield -- a stream that fails before its first item
    async function* outage(): AsyncGenerator<never, SendResult> {
      throw new DatabaseUnavailableError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25320"), { code: "ECONNREFUSED" }));
    }
    const response = await toEventStream(outage());
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("10");
    expect(parse(await response.text())).toEqual([
      {
        event: "error",
        data: {
          code: "DATABASE_UNAVAILABLE",
          title: "Serviço temporariamente indisponível",
          message: "Não conseguimos acessar os dados agora. Tente novamente em alguns segundos.",
          status: 503,
        },
      },
    ]);
  });

  it("streams tokens then done", async () => {
    const user = await newUser(2);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const response = await toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: "I like football" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
    const events = parse(await response.text());
    const tokens = events.filter((e) => e.event === "token");
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    expect(done.data).toMatchObject({ text: tokens.map((t) => t.data.t).join(""), audioUrl: AUDIO_URL, englishLevel: null, balance: 1 });
    expect(typeof done.data.id).toBe("string");
  });

  it("answers failures before the first token with their own status and one error event", async () => {
    const user = await newUser(0);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const exhaustedResponse = await toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: "hi" }));
    expect(exhaustedResponse.status).toBe(402);
    expect(parse(await exhaustedResponse.text())).toEqual([
      { event: "error", data: { code: "CREDITS_EXHAUSTED", message: "Seus créditos acabaram.", status: 402 } },
    ]);
    const invalidResponse = await toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: " " }));
    expect(invalidResponse.status).toBe(400);
    expect(parse(await invalidResponse.text())).toEqual([
      { event: "error", data: { code: "invalid_text", message: "Digite uma mensagem.", status: 400 } },
    ]);
    const greeting = parse(await (await toEventStream(greetConversationStream(ctx(), user, conversation.id))).text());
    expect(greeting.at(-1)!.event).toBe("done");
    const again = await toEventStream(greetConversationStream(ctx(), user, conversation.id));
    expect(again.status).toBe(409);
    await hook("mode=error");
    const other = await startConversation(ctx(), user, { mode: "game" });
    const failedResponse = await toEventStream(greetConversationStream(ctx(), user, other.id));
    expect(failedResponse.status).toBe(502);
    expect(parse(await failedResponse.text())).toEqual([
      {
        event: "error",
        data: { code: "PROVIDER_ERROR", title: "Erro de Conexão", message: "Não foi possível se comunicar com o servidor", status: 502 },
      },
    ]);
  });

  it("keeps pumping after the client goes away, so the paid reply is stored", async () => {
    const user = await newUser(1);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await fetch(`${API}/__ai/config?tokenDelay=20`, { method: "POST" });
    const pending: Promise<unknown>[] = [];
    const response = await toEventStream(sendMessageStream(ctx(), user, conversation.id, { text: "bye" }), {
      waitUntil: (p) => pending.push(p),
    });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(pending).toHaveLength(1);
    await pending[0];
    const stored = await messagesOf(conversation.id);
    expect(stored.map((m) => m.role)).toEqual(["user", "nika"]);
    expect(stored[1]!.text).toContain('Você disse: "bye"');
  });
});

describe("voice messages and Nika's spoken replies", () => {
  /** 0.5 s of a 440 Hz tone as 16 kHz mono WAV, like the browser island sends. */
  const wav = () => {
    const samples = new Float32Array(8000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    return { bytes: encodeWav(samples, 16000), mimeType: "audio/wav" };
  };

  it("transcribes, stores the recording and the transcription, then answers the transcribed text", async () => {
    await fetch(`${API}/__ai/config?transcript=${encodeURIComponent("I want to travel")}`, { method: "POST" });
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const events: unknown[] = [];
    const result = await sendMessage(ctx(), user, conversation.id, { audio: wav() }, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe("ok");
    const ok = result as Extract<SendResult, { status: "ok" }>;
    expect(ok.reply.text).toBe('Você disse: "I want to travel". Muito bem, continue praticando!');
    expect(events).toEqual([
      { type: "transcription", messageId: ok.userMessageId, text: "I want to travel", audioUrl: expect.stringMatching(/\.wav$/) },
    ]);
    const [userRow] = (await messagesOf(conversation.id)).filter((m) => m.role === "user");
    expect(userRow).toMatchObject({
      text: "I want to travel",
      transcription: "I want to travel",
      audioUrl: (events[0] as { audioUrl: string }).audioUrl,
    });
    const keys = await media.keys(`chat-audio/${conversation.id}/`);
    expect(keys).toEqual([`chat-audio/${conversation.id}/${ok.reply.id}.mp3`, `chat-audio/${conversation.id}/${ok.userMessageId}.wav`].sort());
    const stored = await media.bucket.get(`chat-audio/${conversation.id}/${ok.userMessageId}.wav`);
    expect(stored?.httpMetadata?.contentType).toBe("audio/wav");
    expect((await stored!.arrayBuffer()).byteLength).toBe(44 + 16000);
    const sentAudio = (await allRequests()).find((r) => r.path === "/v1/audio/transcriptions")!.body as unknown as Record<string, unknown>;
    expect(sentAudio).toMatchObject({ response_format: "verbose_json", file: { type: "audio/wav", size: 44 + 16000 } });
    expect(await getBalance(db, user.id)).toBe(2);
  });

  it("re-checks the audio limits on the server before spending anything", async () => {
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const cases: [{ bytes: Uint8Array; mimeType: string }, number][] = [
      [{ bytes: new Uint8Array(0), mimeType: "audio/wav" }, 400],
      [{ bytes: new Uint8Array(1023), mimeType: "audio/wav" }, 400],
      [{ bytes: new Uint8Array(2048), mimeType: "text/html" }, 415],
      [{ bytes: new Uint8Array(50 * 1024 * 1024 + 1), mimeType: "audio/wav" }, 413],
    ];
    for (const [audio, status] of cases) {
      const error = await chatError(sendMessage(ctx(), user, conversation.id, { audio }));
      expect([error.status, error.code]).toEqual([status, "invalid_audio"]);
    }
    expect(await getBalance(db, user.id)).toBe(3);
    expect(await allRequests()).toEqual([]);
  });

  it("gives the credit back when the transcription fails or hears nothing", async () => {
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await hook("mode=error");
    expect(await sendMessage(ctx(), user, conversation.id, { audio: wav() })).toMatchObject({
      status: "provider_error",
      title: "Erro de Conexão",
    });
    // nothing heard, or only blanks (a recogniser may answer " "): not understood, refunded
    for (const transcript of ["", "  \n "]) {
      await fetch(`${API}/__ai/config?transcript=${encodeURIComponent(transcript)}`, { method: "POST" });
      expect(await sendMessage(ctx(), user, conversation.id, { audio: wav() })).toMatchObject({
        status: "not_understood",
        code: "NOT_UNDERSTOOD",
      });
    }
    expect(await getBalance(db, user.id)).toBe(3);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id)).orderBy(creditLedger.id);
    expect(ledger.map((l) => [l.delta, l.reason])).toEqual([
      [-1, "chat_message"],
      [1, "refund:provider_failed"],
      [-1, "chat_message"],
      [1, "refund:not_understood"],
      [-1, "chat_message"],
      [1, "refund:not_understood"],
    ]);
    expect(await messagesOf(conversation.id)).toEqual([]);
    expect(await requests()).toEqual([]);
  });

  it("refuses voice with 503 where the provider has no transcription (a chat-only webhook), spending nothing", async () => {
    const env = { NIKA_CHAT_WEBHOOK_URL: `${API}/webhook/nika-chat` };
    const user = await newUser(2);
    const conversation = await startConversation(ctx(env), user, { mode: "english" });
    const error = await chatError(sendMessage(ctx(env), user, conversation.id, { audio: wav() }));
    expect([error.status, error.code, error.message]).toEqual([503, "voice_unavailable", "Mensagens de voz não estão disponíveis no momento."]);
    expect(await getBalance(db, user.id)).toBe(2);
    expect(await allRequests()).toEqual([]);
  });

  it("refunds a voice message whose row cannot be stored, before the transcription is shown", async () => {
    await fetch(`${API}/__ai/config?transcript=${encodeURIComponent("I want to travel")}`, { method: "POST" });
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const events: unknown[] = [];
    await refuseUserMessagesFrom(user.id, async () => {
      const failure = await sendMessage(ctx(), user, conversation.id, { audio: wav() }, { onEvent: (e) => events.push(e) }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(String((failure as Error).cause)).toContain("user messages refused");
    });
    expect(events).toEqual([]);
    expect(await getBalance(db, user.id)).toBe(3);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id)).orderBy(creditLedger.createdAt);
    expect(ledger.map((l) => l.reason)).toEqual(["chat_message", "refund:server_error"]);
    expect(await media.keys(`chat-audio/${conversation.id}/`)).toEqual([]);
  });

  it("keeps the message and answers it when only the recording cannot be put in R2", async () => {
    await fetch(`${API}/__ai/config?transcript=${encodeURIComponent("I want to travel")}`, { method: "POST" });
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const failingPuts = new Proxy(media.bucket, {
      get: (bucket, name) => (name === "put" ? () => Promise.reject(new Error("R2 unavailable")) : Reflect.get(bucket, name, bucket)),
    });
    const events: { type: string; audioUrl?: string | null }[] = [];
    const result = await sendMessage(
      world.ctx({ ...world.aiEnv, MEDIA: failingPuts }),
      user,
      conversation.id,
      { audio: wav() },
      {
        onEvent: (e) => events.push(e as never),
      },
    );
    expect(result).toMatchObject({
      status: "ok",
      reply: { text: 'Você disse: "I want to travel". Muito bem, continue praticando!', audioUrl: null },
    });
    expect(events).toEqual([expect.objectContaining({ type: "transcription", text: "I want to travel", audioUrl: null })]);
    const [userRow] = (await messagesOf(conversation.id)).filter((m) => m.role === "user");
    expect(userRow).toMatchObject({ text: "I want to travel", status: "complete", audioUrl: null });
    expect(await getBalance(db, user.id)).toBe(2);
  });

  it("synthesises Nika's reply once, stores it in R2, and falls back to no audio when speech fails", async () => {
    const user = await newUser(3);
    const conversation = await startConversation(ctx(), user, { mode: "portuguese" });
    const first = (await sendMessage(ctx(), user, conversation.id, { text: "oi" })) as Extract<SendResult, { status: "ok" }>;
    const speech = (await allRequests()).filter((r) => r.path === "/v1/audio/speech");
    expect(speech.map((r) => r.body.input)).toEqual([first.reply.text]);
    const object = await media.bucket.get(`chat-audio/${conversation.id}/${first.reply.id}.mp3`);
    expect(object?.httpMetadata?.contentType).toBe("audio/mpeg");
    // the chat call takes the first queued hook (a no-op), the speech call the second (HTTP 500)
    await hook("mode=slow&delay=0");
    await hook("mode=error");
    const second = (await sendMessage(ctx(), user, conversation.id, { text: "tudo bem?" })) as Extract<SendResult, { status: "ok" }>;
    expect(second.status).toBe("ok");
    expect(second.reply.audioUrl).toBeNull();
    expect(await getBalance(db, user.id)).toBe(1);
  });

  it("speaks the webhook contract for voice: user-audio transcribes, nika-chat answers", async () => {
    const env = { NIKA_CHAT_WEBHOOK_URL: `${API}/webhook/nika-chat`, NIKA_USER_AUDIO_WEBHOOK_URL: `${API}/webhook/user-audio` };
    const user = await newUser(2);
    const conversation = await startConversation(ctx(env), user, { mode: "roleplay" });
    const result = await sendMessage(ctx(env), user, conversation.id, { audio: wav() });
    expect(result).toMatchObject({
      status: "ok",
      reply: { text: 'Você disse: "I like to play football". Muito bem, continue praticando!', audioUrl: null },
    });
    const [audioCall, chatCall] = await allRequests();
    expect(audioCall!.path).toBe("/webhook/user-audio");
    expect(audioCall!.body).toMatchObject({
      sessionID: conversation.id,
      mode: "roleplay",
      userId: user.id,
      userAudio: expect.stringMatching(/^UklGR/),
    });
    expect(chatCall!.body).toMatchObject({ sessionID: conversation.id, userText: "I like to play football" });
  });
});
