// The guard of every Teacher FLIX admin loader and action. The edit actions themselves are the shared
// admin form workflow (~/server/admin-forms.server: read, validate, store images, save, answer).
import type { AppLoadContext } from "react-router";
import { requireAdmin } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";

/** Every admin loader and action: admins only (GET → redirect, POST → 403), Teacher FLIX enabled. */
export async function requireCourseAdmin(request: Request, context: AppLoadContext) {
  const user = await requireAdmin(request, context);
  await requireFeature(context, "feature_teacher_flix");
  return user;
}
