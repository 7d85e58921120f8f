// The profile fields' schemas (spec §4, §5, §9): the rules /config's action checks (name, WhatsApp, e-mail change);
// the WhatsApp step of a Google sign-up builds on whatsappSchema. The /config page itself validates nothing in the
// browser, so it loads no zod: its forms send the value and show the server's reply, with or without JavaScript
// (account-panels.tsx; decision 0019).
import { z } from "zod";
import { EMAIL_MAX, EMAIL_MESSAGES, isWhatsapp, NAME_MAX, NAME_MESSAGES, sanitizeText, WHATSAPP_MAX, WHATSAPP_MESSAGES } from "./account-rules";

export const nameSchema = z.object({
  intent: z.literal("name"),
  name: z
    .string()
    .optional()
    .transform((value) => sanitizeText(value ?? ""))
    .pipe(z.string({ error: NAME_MESSAGES.required }).min(1, NAME_MESSAGES.required).max(NAME_MAX, NAME_MESSAGES.tooLong)),
});

export const whatsappSchema = z.object({
  intent: z.literal("whatsapp"),
  whatsapp: z
    .string()
    .optional()
    .transform((value) => sanitizeText(value ?? ""))
    .pipe(
      z
        .string({ error: WHATSAPP_MESSAGES.required })
        .min(1, WHATSAPP_MESSAGES.required)
        .max(WHATSAPP_MAX, WHATSAPP_MESSAGES.invalid)
        .refine(isWhatsapp, WHATSAPP_MESSAGES.invalid),
    ),
});

/** The new address: trimmed, lower-cased, required, a valid e-mail of at most 254, not the current one. */
export function emailChangeSchema(currentEmail?: string) {
  return z.object({
    intent: z.literal("email"),
    email: z
      .string()
      .optional()
      .transform((value) => (value ?? "").trim().toLowerCase())
      .pipe(
        z
          .string({ error: EMAIL_MESSAGES.required })
          .min(1, EMAIL_MESSAGES.required)
          .max(EMAIL_MAX, EMAIL_MESSAGES.tooLong)
          .pipe(z.email(EMAIL_MESSAGES.invalid))
          .refine((email) => !currentEmail || email !== currentEmail.toLowerCase(), EMAIL_MESSAGES.same),
      ),
    /** Without JS the first post shows the confirmation section; `confirmed=1` sends the link. */
    confirmed: z.literal("1").optional(),
  });
}
