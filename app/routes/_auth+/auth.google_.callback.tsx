// GET /auth/google/callback: where Google sends the browser back (the redirect URI registered in the
// Google Cloud console). A session and the toast 'Login realizado com sucesso!', or /signin with
// 'Erro ao fazer login com Google. Tente novamente.' (decision 0017). 404 while Google sign-in is unavailable.
import type { LoaderFunctionArgs } from "react-router";
import { completeGoogleSignIn, requireGoogleSignIn } from "~/features/auth/google.server";
import type { RouteHandle } from "~/lib/access";
import { redirectIfSignedIn } from "~/server/auth.server";

export const handle: RouteHandle = { access: "guest" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  await requireGoogleSignIn(context);
  return completeGoogleSignIn(context, request);
}
