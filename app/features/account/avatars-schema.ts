// The avatar form of /config/app: one of the 7 bundled avatars (app/lib/avatars.ts), shared by the
// browser and the action (the authority: anything but 1–7 is refused, nothing stored).
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { AVATAR_COUNT } from "~/lib/avatars";

export const AVATAR_MESSAGES = {
  invalid: "Escolha um dos avatares.",
  saved: "Avatar atualizado!",
} as const;

export const avatarSchema = z.object({
  intent: z.literal("avatar"),
  avatar: z.coerce
    .number({ error: AVATAR_MESSAGES.invalid })
    .int(AVATAR_MESSAGES.invalid)
    .min(1, AVATAR_MESSAGES.invalid)
    .max(AVATAR_COUNT, AVATAR_MESSAGES.invalid),
});

export type AvatarActionData = { result: SubmissionResult<string[]>; code: string };
