import { Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { NoticeBox } from "~/components/notice";
import { AuthCard } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/email-change-verification";

export const handle: RouteHandle = { access: "public" };

export const meta: Route.MetaFunction = () => [{ title: "Alteração de email — Nika" }];

export default function EmailChangeVerification() {
  return (
    <AuthCard title="Alteração de email">
      <NoticeBox notice={{ tone: "success", title: "Email alterado com sucesso!", description: "Entre novamente com o seu novo email." }} />
      <Link to="/signin" className={buttonVariants({ size: "lg", className: "w-full" })}>
        Voltar para o login
      </Link>
    </AuthCard>
  );
}
