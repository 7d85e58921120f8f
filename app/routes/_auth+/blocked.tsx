import { Form, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/button";
import { AuthCard } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { getSessionUser } from "~/server/auth.server";
import type { Route } from "./+types/blocked";

export const handle: RouteHandle = { access: "public" };

export const meta: Route.MetaFunction = () => [{ title: "Conta restrita — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  return { supportEmail: context.cloudflare.env.SUPPORT_EMAIL || "suporte@nika.app", signedIn: Boolean(user) };
}

export default function Blocked() {
  const { supportEmail, signedIn } = useLoaderData<typeof loader>();
  const mailto = `mailto:${supportEmail}?subject=${encodeURIComponent("Conta restrita no Nika")}`;
  return (
    <AuthCard title="Conta restrita" subtitle="O acesso desta conta ao Nika está temporariamente restrito.">
      <p className="mb-6 text-sm text-slate-700 dark:text-slate-300">
        Se você acha que isso é um engano, fale com o nosso suporte. Vamos ajudar você a voltar a estudar.
      </p>
      <a href={mailto} className={buttonVariants({ size: "lg", className: "w-full" })}>
        Falar com o suporte
      </a>
      {signedIn ? (
        <Form method="post" action="/signout" className="mt-3">
          <button type="submit" className={buttonVariants({ variant: "secondary", size: "lg", className: "w-full" })}>
            Sair
          </button>
        </Form>
      ) : null}
    </AuthCard>
  );
}
