// The remix-auth authenticator: e-mail + password (remix-auth-form) and, when configured, Google
// (google-oidc.server.ts). One per request, because the strategies need the request's database.
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { z } from "zod";
import type { DbOrTx } from "~/server/db.server";
import { verifyPassword } from "~/server/password";
import { users, type User } from "~/server/schema";
import { googleStrategy, type GoogleIdentity } from "./google-oidc.server";
import { passwordCredentials } from "./tables";

export class InvalidCredentialsError extends Error {
  constructor() {
    super("invalid_credentials");
  }
}

export type AuthenticatedUser = Pick<User, "id" | "email" | "emailConfirmedAt" | "accountType">;

export async function verifyCredentials(db: DbOrTx, email: string, password: string): Promise<AuthenticatedUser> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      emailConfirmedAt: users.emailConfirmedAt,
      accountType: users.accountType,
      passwordHash: passwordCredentials.passwordHash,
    })
    .from(users)
    .innerJoin(passwordCredentials, eq(passwordCredentials.userId, users.id))
    .where(eq(users.email, email));
  // Hash even when the user does not exist, so timing does not reveal registered e-mails.
  const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) throw new InvalidCredentialsError();
  const { passwordHash: _p, ...user } = row;
  return user;
}
const DUMMY_HASH = "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

const credentialsSchema = z.object({ email: z.string().trim().toLowerCase(), password: z.string().min(1) });

/** What each strategy verifies: `authenticate("form", …)` a user, `authenticate("google", …)` a Google identity. */
export interface NikaAuthenticator {
  authenticate(strategy: "form", request: Request): Promise<AuthenticatedUser>;
  authenticate(strategy: "google", request: Request): Promise<GoogleIdentity>;
}

/** One authenticator per request. Google is plugged in when it is configured (see googleStrategy). */
export function createAuthenticator(context: AppLoadContext, request?: Request): NikaAuthenticator {
  const authenticator = new Authenticator<AuthenticatedUser | GoogleIdentity>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      // The route has validated the sign-in form (features/auth signinSchema); here only its two fields are read.
      const submission = parseWithZod(form, { schema: credentialsSchema });
      if (submission.status !== "success") throw new InvalidCredentialsError();
      return verifyCredentials(context.db, submission.value.email, submission.value.password);
    }),
    "form",
  );
  const google = googleStrategy(context, request);
  if (google) authenticator.use(google, "google");
  // Each name is registered with the strategy whose result the interface gives it.
  return authenticator as NikaAuthenticator;
}
