import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { ComingSoon } from "~/features/shell/ComingSoon";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Flashcards — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  await requireFeature(context, "feature_flashcards");
  return null;
}

export default function Page() {
  return (
    <ComingSoon
      feature="Flashcards"
      backTo="/labs"
      backLabel="Voltar ao Labs"
      description="Os flashcards com imagens e áudio estão quase prontos."
    />
  );
}
