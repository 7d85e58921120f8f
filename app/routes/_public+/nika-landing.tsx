import type { MetaFunction } from "react-router";
import { PublicLanding } from "~/features/shell/ui/PublicLanding";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "public" };

export const meta: MetaFunction = () => [
  { title: "Nika — Aprenda inglês conversando com IA" },
  { name: "description", content: "Pratique conversação, pronúncia e vocabulário com a Nika, sua professora de inglês com IA." },
];

export default function NikaLanding() {
  return (
    <PublicLanding
      title="Aprenda inglês conversando com a Nika"
      lead="Pratique conversação, pronúncia e vocabulário com uma professora de inteligência artificial que fala a sua língua — quando e onde quiser."
    />
  );
}
