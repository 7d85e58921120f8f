import { z } from "zod";

/** The purchase form: which pack; `respond=url` when the page's script wants the URL to open in a new tab. */
export const checkoutSchema = z.object({
  pack: z.string({ error: "Escolha um pacote." }).regex(/^\d{1,6}$/, "Escolha um pacote."),
  respond: z.enum(["url"]).optional(),
});
