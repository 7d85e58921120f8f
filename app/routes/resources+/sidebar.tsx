import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { isSafeRedirect, sidebarCookie } from "~/features/shell/sidebar-state";
import { isProduction } from "~/server/env";

const schema = z.object({
  open: z.enum(["true", "false"]),
  redirectTo: z
    .string()
    .max(2000)
    .refine((to) => isSafeRedirect(to))
    .optional()
    .default("/"),
});

/** The sidebar toggle without JavaScript: saves the state in the cookie and goes back. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Método não permitido." }, { status: 405, headers: { Allow: "POST" } });
  const form = await request.formData();
  const parsed = schema.safeParse({
    open: form.get("open") ?? undefined,
    redirectTo: form.get("redirectTo") || undefined,
  });
  if (!parsed.success) return Response.json({ error: "Pedido inválido." }, { status: 400 });
  const secure = isProduction(context.cloudflare.env);
  return redirect(parsed.data.redirectTo, {
    headers: { "Set-Cookie": sidebarCookie(parsed.data.open === "true", { secure }) },
  });
}

export const loader = () => redirect("/");
