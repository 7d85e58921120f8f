import { redirect } from "react-router";
import { z } from "zod";
import { sidebarCookie } from "~/features/shell/sidebar-state";
import type { RouteHandle } from "~/lib/access";
import { isSafeRedirect } from "~/lib/safe-redirect";
import { safeRedirect } from "~/server/auth.server";
import { isProduction } from "~/server/env";
import { parseForm } from "~/server/request.server";
import type { Route } from "./+types/sidebar";

export const handle: RouteHandle = { access: "public" };

const schema = z.object({
  open: z.enum(["true", "false"]),
  redirectTo: z
    .string()
    .max(2000)
    .refine((to) => isSafeRedirect(to))
    .default("/"),
});

/** The sidebar toggle without JavaScript: saves the state in the cookie and goes back. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Método não permitido." }, { status: 405, headers: { Allow: "POST" } });
  const submission = await parseForm(request, schema);
  if (submission.status !== "success") return Response.json({ error: "Pedido inválido." }, { status: 400 });
  const { open, redirectTo } = submission.value;
  const secure = isProduction(context.cloudflare.env);
  return redirect(safeRedirect(redirectTo), {
    headers: { "Set-Cookie": sidebarCookie(open === "true", { secure }) },
  });
}

export const loader = () => redirect("/");
