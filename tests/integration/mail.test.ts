import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db.server";
import { sendMail } from "~/server/mail.server";
import { mailOutbox } from "~/server/schema";
import { freePort, startFakeUpstream } from "./fake-upstream";
import { createTestDb } from "./harness";

// The mail module against the same fake upstream the e2e run uses (Resend's HTTP protocol).
// A free port of its own (parallel runs and Stryker workers may run this file at once).
const PORT = await freePort();
const API = `http://127.0.0.1:${PORT}`;
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let db: Database;
const mail = { to: "maria@example.com", subject: "Olá", text: "Oi Maria", html: "<p>Oi Maria</p>", kind: "test" };

beforeAll(async () => {
  ({ db } = await createTestDb());
  upstream = await startFakeUpstream(PORT, ["--api-key", "right-key"]);
});
afterAll(() => upstream?.stop());

describe("sendMail", () => {
  it("posts to the mail API and records the provider id", async () => {
    const result = await sendMail(db, { MAIL_API_URL: API, MAIL_API_KEY: "right-key", MAIL_FROM: "Nika <n@nika.app>" }, mail);
    expect(result.status).toBe("sent");
    const received = (await (await fetch(`${API}/__emails?to=maria@example.com`)).json()) as { id: string }[];
    expect(received.at(-1)).toMatchObject({ from: "Nika <n@nika.app>", to: ["maria@example.com"], subject: "Olá", text: "Oi Maria" });
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: "sent", providerMessageId: received.at(-1)!.id });
  });

  it("records a refusal (wrong key) as failed without throwing", async () => {
    const result = await sendMail(db, { MAIL_API_URL: API, MAIL_API_KEY: "wrong" }, mail);
    expect(result.status).toBe("failed");
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row!.error).toContain("401");
  });

  it("keeps the message only in the outbox when no API is configured", async () => {
    const result = await sendMail(db, {}, mail);
    expect(result.status).toBe("not_configured");
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ toAddress: "maria@example.com", textBody: "Oi Maria" });
  });
});
