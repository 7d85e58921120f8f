import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { ComingSoon } from "~/features/shell/ComingSoon";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Jogo de Pronúncia — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  await requireFeature(context, "feature_pronunciation");
  return null;
}

export default function Page() {
  return (
    <ComingSoon
      feature="Jogo de Pronúncia"
      backTo="/labs"
      backLabel="Voltar ao Labs"
      description="O jogo de pronúncia com 100 níveis está quase pronto."
    />
  );
}
