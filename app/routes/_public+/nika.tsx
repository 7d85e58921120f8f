import type { MetaFunction } from "react-router";
import { PublicLanding } from "~/features/shell/ui/PublicLanding";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "public" };

export const meta: MetaFunction = () => [
  { title: "Conheça a Nika" },
  { name: "description", content: "A Nika é uma professora de inglês com inteligência artificial feita para quem fala português." },
];

export default function Nika() {
  return (
    <PublicLanding
      title="Conheça a Nika, sua professora de inglês"
      lead="A Nika explica em português, conversa em inglês, corrige sua pronúncia e acompanha o seu progresso, tudo em um app que você instala no celular."
    />
  );
}
