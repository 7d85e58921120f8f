import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";
import { useCoursesNavigationSkeleton } from "~/features/courses/Skeletons";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Teacher FLIX — Nika" }];

/**
 * Layout of every /courses page: guard for the whole tree (each child loader and action still guards
 * itself — a parent loader does not protect child actions) and the skeleton of a course page while a
 * client navigation loads it.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  return null;
}

export default function CoursesLayout() {
  const skeleton = useCoursesNavigationSkeleton();
  return skeleton ?? <Outlet />;
}
