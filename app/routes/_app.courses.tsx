import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { ComingSoon } from "~/features/shell/ComingSoon";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";

export const meta: MetaFunction = () => [{ title: "Teacher FLIX — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  return null;
}

export default function Page() {
  return <ComingSoon feature="Teacher FLIX" backTo="/" backLabel="Voltar ao início" description="Os cursos em vídeo do Teacher FLIX estão chegando." />;
}
