// The setup chat test files share: the fake upstream speaking the OpenAI protocol on its own port
// (reset before each test), a fresh PGlite database and a Miniflare R2 bucket; and how a refusal is caught.
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { ChatError } from "~/features/conversation";
import type { Database } from "~/server/db.server";
import { startFakeUpstream } from "./fake-upstream";
import { contextFor, createTestBucket, createTestDb } from "./harness";

export function useChatWorld(port: number, key: string) {
  const api = `http://127.0.0.1:${port}`;
  const aiEnv = { OPENAI_BASE_URL: `${api}/v1`, OPENAI_API_KEY: key, OPENAI_CHAT_MODEL: "fake-chat" };
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>> | undefined;
  let media: Awaited<ReturnType<typeof createTestBucket>> | undefined;
  let db: Database | undefined;
  let queryCount: (() => number) | undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream(port, ["--openai-key", key]);
    ({ db, queryCount } = await createTestDb());
    media = await createTestBucket();
  });
  afterAll(async () => {
    await upstream?.stop();
    await media?.dispose();
  });
  beforeEach(async () => {
    await fetch(`${api}/__ai/reset`, { method: "POST" });
  });

  return {
    api,
    aiEnv,
    get db() {
      return db!;
    },
    /** Statements sent to the database so far (all contexts of this world). */
    queryCount: () => queryCount!(),
    get media() {
      return media!;
    },
    /** A load context with the bucket and, by default, the fake OpenAI-compatible provider. */
    ctx: (env: Record<string, unknown> = aiEnv): AppLoadContext => contextFor(db!, { MEDIA: media!.bucket, ...env }),
    /** Queues a fake-upstream hook (`mode=error`, `mode=slow&delay=…`, …) for the next AI call. */
    hook: (query: string) => fetch(`${api}/__ai/next?${query}`, { method: "POST" }),
  };
}

/** The ChatError a call is refused with (the test fails when it resolves or throws anything else). */
export async function chatError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatError);
  return error as ChatError;
}
