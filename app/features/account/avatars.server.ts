// Saving the learner's avatar (users.avatar, 1–7): a real change is also recorded in profile_updates,
// which the admin analytics count; choosing the avatar already shown stores nothing.
import { and, eq, ne } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { users } from "~/server/schema";
import { profileUpdates } from "./tables";

export async function saveAvatar(context: AppLoadContext, userId: string, avatar: number): Promise<{ changed: boolean }> {
  return context.db.transaction(async (tx) => {
    const updated = await tx
      .update(users)
      .set({ avatar, updatedAt: new Date() })
      .where(and(eq(users.id, userId), ne(users.avatar, avatar)))
      .returning({ id: users.id });
    if (updated.length === 0) return { changed: false };
    await tx.insert(profileUpdates).values({ userId, field: "avatar" });
    return { changed: true };
  });
}
