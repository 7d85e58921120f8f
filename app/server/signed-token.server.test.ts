// Signed tokens: a token verifies only for its subject and purpose, under its secret, and only in the one spelling
// signToken writes — base64's last character of a 32-byte MAC has 2 unused bits, and a second spelling of the same
// MAC must not pass for a different token (a test that "tampers" with that character would otherwise pass by luck).
import { describe, expect, it } from "vitest";
import { keyIdOf, signingKeyId, signToken, verifyToken } from "./signed-token.server";

const env = { SESSION_SECRET: "test-secret" };
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("a rotated SESSION_SECRET", () => {
  it("accepts tokens signed with SESSION_SECRET_PREVIOUS, signs only with the new one, and a key id picks the secret", async () => {
    const before = { SESSION_SECRET: "old-secret" };
    const after = { SESSION_SECRET: "new-secret", SESSION_SECRET_PREVIOUS: "old-secret" };
    const old = await signToken(before, "p", "s");
    expect(await verifyToken({ SESSION_SECRET: "new-secret" }, "p", old)).toBeNull();
    expect(await verifyToken(after, "p", old)).toBe("s");
    expect(await signToken(after, "p", "s")).toBe(await signToken({ SESSION_SECRET: "new-secret" }, "p", "s"));
    expect(await verifyToken(after, "p", old, await keyIdOf("old-secret"))).toBe("s");
    expect(await verifyToken(after, "p", old, await keyIdOf("new-secret"))).toBeNull();
    expect(await verifyToken(after, "p", old, "unknown!")).toBeNull();
    const id = await signingKeyId(after);
    expect(id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(id).not.toBe(await keyIdOf("old-secret"));
  });
});

describe("signed tokens", () => {
  it("verifies its own token, and refuses another purpose, another secret or a changed subject", async () => {
    const token = await signToken(env, "purpose-a", "subject-1");
    expect(await verifyToken(env, "purpose-a", token)).toBe("subject-1");
    expect(await verifyToken(env, "purpose-b", token)).toBeNull();
    expect(await verifyToken({ SESSION_SECRET: "other" }, "purpose-a", token)).toBeNull();
    expect(await verifyToken(env, "purpose-a", token.replace("subject-1", "subject-2"))).toBeNull();
    expect(await verifyToken(env, "purpose-a", "no-dot")).toBeNull();
    expect(await verifyToken(env, "purpose-a", "subject-1.not*base64")).toBeNull();
  });

  it("accepts only the spelling it wrote: every other last character is refused, and so is a changed middle one", async () => {
    for (let n = 0; n < 20; n++) {
      const token = await signToken(env, "purpose", `subject-${n}`);
      const last = token.at(-1)!;
      const others = [...ALPHABET].filter((c) => c !== last).map((c) => token.slice(0, -1) + c);
      const verdicts = await Promise.all(others.map((other) => verifyToken(env, "purpose", other)));
      expect(verdicts.every((v) => v === null)).toBe(true);
      const middle = token.length - 20;
      const flipped = token.slice(0, middle) + (token[middle] === "A" ? "B" : "A") + token.slice(middle + 1);
      expect(await verifyToken(env, "purpose", flipped)).toBeNull();
    }
  });
});
