// /config (tab Conta). Older links name a tab with `?tab=` (e.g. the credits dialog's `?tab=account#creditos`).
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { TAB_PATHS } from "~/features/account/ConfigLayout";
import { formatLevelDate, levelLabel } from "~/features/chat/ui/EnglishLevel";
import { SignOutButton } from "~/features/shell/ShellParts";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";

export const handle: RouteHandle = { access: "user" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const tab = new URL(request.url).searchParams.get("tab");
  if (tab && TAB_PATHS[tab] && TAB_PATHS[tab] !== "/config") throw redirect(TAB_PATHS[tab]);
  return {
    englishLevel: user.englishLevel,
    englishLevelAt: user.englishLevelAt ? new Date(user.englishLevelAt).toISOString() : null,
  };
}

export default function Config() {
  const { englishLevel, englishLevelAt } = useLoaderData<typeof loader>();
  return (
    <>
      <section aria-labelledby="nivel-ingles" className="rounded-2xl border border-slate-200 p-4 text-left dark:border-night-700">
        <h2 id="nivel-ingles" className="font-semibold">
          Nível de inglês
        </h2>
        <p className="mt-1 text-slate-700 dark:text-slate-200" data-testid="account-english-level">
          {englishLevel
            ? `${levelLabel(englishLevel)}${englishLevelAt ? ` (teste feito em ${formatLevelDate(englishLevelAt)})` : ""}`
            : "Você ainda não fez o teste de nível."}
        </p>
        <Link to="/english-level-test" className="mt-2 inline-block text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300">
          {englishLevel ? "Refazer o teste" : "Fazer o teste de nível"}
        </Link>
      </section>
      <div className="mt-6">
        <SignOutButton className="border border-slate-300 px-4 dark:border-night-700" />
      </div>
    </>
  );
}
