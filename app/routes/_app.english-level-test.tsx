import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { ComingSoon } from "~/features/shell/ComingSoon";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";

export const meta: MetaFunction = () => [{ title: "Teste de Nível de Inglês — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  await requireFeature(context, "feature_chat_english_test");
  return null;
}

export default function Page() {
  return <ComingSoon feature="Teste de Nível de Inglês" backTo="/labs" backLabel="Voltar ao Labs" description="Em breve você vai descobrir seu nível de inglês conversando com a Nika." />;
}
