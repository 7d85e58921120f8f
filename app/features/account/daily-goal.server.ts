// The daily goal and the "Lembrete diário" opt-in: the forms of /config/app and the goal offer on the
// home page post here. A goal outside DAILY_GOALS is refused and nothing is stored; points are never posted (the
// learner only chooses how many a day they aim for). The reminder's cron and e-mail live elsewhere: this only
// stores the choice.
import type { SubmissionResult } from "@conform-to/react";
import { eq } from "drizzle-orm";
import { type AppLoadContext, data } from "react-router";
import { z } from "zod";
import { DAILY_GOALS } from "~/server/activity.server";
import { forgetUserSessions } from "~/server/auth.server";
import { BODY_MESSAGES } from "~/server/request.server";
import { users } from "~/server/schema";
import { redirectWithToast } from "~/server/toast.server";

export const DAILY_GOAL_MESSAGES = {
  invalid: "Escolha uma das metas.",
  saved: "Meta diária salva!",
  reminderOn: "Lembrete diário ativado",
  reminderOff: "Lembrete diário desativado",
  reminderInvalid: "Escolha ativar ou desativar o lembrete.",
} as const;

const GOAL_POINTS = DAILY_GOALS.map((goal) => String(goal.points)) as [string, ...string[]];

export const dailyGoalSchema = z.object({
  intent: z.literal("daily_goal"),
  goal: z.enum(GOAL_POINTS, { error: DAILY_GOAL_MESSAGES.invalid }).transform(Number),
});

export const reminderSchema = z.object({
  intent: z.literal("reminder"),
  reminder: z.enum(["on", "off"], { error: DAILY_GOAL_MESSAGES.reminderInvalid }).transform((value) => value === "on"),
});

/** A refused goal or reminder form: the conform reply of what was sent and why. */
export type HabitActionData = { intent: "avatar" | "daily_goal" | "reminder" | "unknown"; result: SubmissionResult<string[]>; code: string };

export async function saveDailyGoal(context: AppLoadContext, userId: string, goal: number) {
  await context.db.update(users).set({ dailyGoal: goal, dailyGoalChosenAt: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function saveReminderOptIn(context: AppLoadContext, userId: string, optIn: boolean) {
  await context.db.update(users).set({ reminderOptIn: optIn, updatedAt: new Date() }).where(eq(users.id, userId));
}

export type HabitChoice = z.infer<typeof dailyGoalSchema> | z.infer<typeof reminderSchema>;

/** A form of /config/app or the home page that did not validate: 400 with its intent and the pt-BR reason. */
export function refuseSubmission(submission: {
  payload: Record<string, unknown>;
  reply: (options?: { formErrors?: string[] }) => SubmissionResult<string[]>;
}) {
  const intent = submission.payload.intent;
  const known = intent === "daily_goal" || intent === "reminder" || intent === "avatar";
  return data<HabitActionData>(
    {
      intent: known ? intent : "unknown",
      result: known ? submission.reply() : submission.reply({ formErrors: [BODY_MESSAGES.unknownIntent] }),
      code: known ? `invalid_${intent}` : "unknown_intent",
    },
    { status: 400 },
  );
}

/** Stores the goal or the reminder choice and goes back to `back` with a toast. */
export async function saveHabitChoice(context: AppLoadContext, userId: string, choice: HabitChoice, back: string) {
  const env = context.cloudflare.env;
  if (choice.intent === "daily_goal") {
    await saveDailyGoal(context, userId, choice.goal);
    // The goal is shown by "Hoje", which a page load meanwhile may have kept (keptWithSession).
    forgetUserSessions(context, userId);
    return redirectWithToast(env, back, { type: "success", title: DAILY_GOAL_MESSAGES.saved });
  }
  await saveReminderOptIn(context, userId, choice.reminder);
  return redirectWithToast(env, back, {
    type: "success",
    title: choice.reminder ? DAILY_GOAL_MESSAGES.reminderOn : DAILY_GOAL_MESSAGES.reminderOff,
  });
}
