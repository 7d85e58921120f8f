import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { ComingSoon } from "~/features/shell/ComingSoon";
import { SignOutButton } from "~/features/shell/ShellParts";
import { requireUser } from "~/server/auth.server";

export const meta: MetaFunction = () => [{ title: "Configurações — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export default function Config() {
  return (
    <ComingSoon
      feature="Configurações"
      description="Em breve você poderá editar sua conta, sua senha e as preferências do app aqui."
    >
      <div className="mt-6">
        <SignOutButton className="border border-slate-300 px-4 dark:border-night-700" />
      </div>
    </ComingSoon>
  );
}
