import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { ComingSoon } from "~/features/shell/ComingSoon";
import { requireUser } from "~/server/auth.server";

export const meta: MetaFunction = () => [{ title: "Chat with Nika — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export default function Page() {
  return <ComingSoon feature="Chat with Nika" backTo="/" backLabel="Voltar ao início" description="Em breve você vai conversar com a Nika em português, em inglês, em jogos e em role plays." />;
}
