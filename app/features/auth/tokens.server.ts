// Single-use e-mail tokens (verification, password reset, e-mail change): only a token's SHA-256 is
// stored, with an expiry; issuing one voids the older unused ones of the same purpose.
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "~/server/db.server";
import { randomToken, sha256Hex } from "~/server/password";
import { authTokens } from "./tables";

export type TokenPurpose = "email_verification" | "password_reset" | "email_change";
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_verification: 24 * 60 * 60_000,
  password_reset: 60 * 60_000,
  email_change: 24 * 60 * 60_000,
};

/**
 * Issues a token (only its hash is stored) and invalidates older unused ones of the same purpose — together,
 * so a failure in between never leaves the learner without a usable link.
 */
export async function issueToken(db: DbOrTx, userId: string, purpose: TokenPurpose, newEmail?: string) {
  const token = randomToken();
  const tokenHash = await sha256Hex(token);
  await db.transaction(async (tx) => {
    await tx
      .update(authTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)));
    await tx.insert(authTokens).values({
      tokenHash,
      userId,
      purpose,
      newEmail: newEmail ?? null,
      expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
    });
  });
  return token;
}

export type TokenLookup =
  | { status: "valid"; userId: string; newEmail: string | null; tokenId: number }
  | { status: "expired"; userId: string }
  | { status: "used"; userId: string }
  | { status: "invalid" };

export async function findToken(db: DbOrTx, token: string, purpose: TokenPurpose, now = new Date()): Promise<TokenLookup> {
  const [row] = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, await sha256Hex(token)), eq(authTokens.purpose, purpose)));
  if (!row) return { status: "invalid" };
  if (row.usedAt) return { status: "used", userId: row.userId };
  if (row.expiresAt.getTime() <= now.getTime()) return { status: "expired", userId: row.userId };
  return { status: "valid", userId: row.userId, newEmail: row.newEmail, tokenId: row.id };
}

/** Marks a token used; false if another request used it first. */
export async function consumeToken(db: DbOrTx, tokenId: number): Promise<boolean> {
  const used = await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.id, tokenId), isNull(authTokens.usedAt)))
    .returning({ id: authTokens.id });
  return used.length === 1;
}
