import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { AuthCard, NoticeBox } from "~/features/auth/ui";

export const meta: MetaFunction = () => [{ title: "Alteração de email — Nika" }];

export default function EmailChangeVerification() {
  return (
    <AuthCard title="Alteração de email">
      <NoticeBox notice={{ tone: "success", title: "Email alterado com sucesso!", description: "Entre novamente com o seu novo email." }} />
      <Link to="/signin" className="block w-full rounded-lg bg-indigo-600 px-4 py-2.5 text-center font-semibold text-white hover:bg-indigo-500">
        Voltar para o login
      </Link>
    </AuthCard>
  );
}
