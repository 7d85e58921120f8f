// GET /auth/google: the "Entrar com Google" link of /signin. Redirects to Google's consent page with
// state + PKCE (remix-auth-oauth2); `?redirectTo=` is kept for after the sign-in. 404 while Google
// sign-in is not configured or the flag enable_account_creation_on_signin is off (decision 0017).
import type { LoaderFunctionArgs } from "react-router";
import { requireGoogleSignIn, startGoogleSignIn } from "~/features/auth/google.server";
import type { RouteHandle } from "~/lib/access";
import { redirectIfSignedIn } from "~/server/auth.server";

export const handle: RouteHandle = { access: "guest" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  await requireGoogleSignIn(context);
  return startGoogleSignIn(context, request);
}
