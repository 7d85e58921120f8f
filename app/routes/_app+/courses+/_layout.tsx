import { Outlet } from "react-router";
import { useCoursesNavigationSkeleton } from "~/features/courses/ui/Skeletons";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import type { Route } from "./+types/_layout";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Teacher FLIX — Nika" }];

/**
 * Layout of every /courses page: guard for the whole tree (each child loader and action still guards
 * itself — a parent loader does not protect child actions) and the skeleton of a course page while a
 * client navigation loads it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  return null;
}

export default function CoursesLayout() {
  const skeleton = useCoursesNavigationSkeleton();
  return skeleton ?? <Outlet />;
}
