import type { SubmissionResult } from "@conform-to/react";
import { data, Link, Outlet, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { ADMIN_PANEL_ID } from "~/components/admin/panel-id";
import { buttonVariants } from "~/components/button";
import { BookIcon, ChatIcon, UploadIcon } from "~/components/icons";
import { courseNotFound, handleCompleteAction, loadLessonPage } from "~/features/courses/catalog.server";
import { COMMENT_MAX_LENGTH, handleCommentAction } from "~/features/courses/comments.server";
import { useLessonLiveRefresh } from "~/features/courses/live";
import { Comments } from "~/features/courses/ui/Comments";
import { LessonTabs } from "~/features/courses/ui/LessonTabs";
import { AboutLesson, LessonActions, LessonHeader } from "~/features/courses/ui/LessonView";
import { MaterialsList } from "~/features/courses/ui/materials";
import { CourseErrorBoundary, courseErrorTitle } from "~/features/courses/ui/NotFound";
import { LessonVideo } from "~/features/courses/ui/video";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import { BODY_MESSAGES, parseForm, requireUuidParam } from "~/server/request.server";
import type { Route } from "./+types/lessons.$lessonId";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = ({ data, error }) => [
  { title: data ? `${data.page.lesson.title} — Teacher FLIX` : courseErrorTitle(error) },
];

/** Missing, malformed or (for learners) unavailable lesson → 404 "Aula não encontrada". */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  const viewer = { id: user.id, isAdmin: user.isAdmin };
  const found = await loadLessonPage(context.db, viewer, params.lessonId);
  if (!found) throw courseNotFound("lesson");
  const { comments, ...page } = found;
  return { page, comments, isAdmin: user.isAdmin };
}

/** The lesson page's two forms: mark it completed, or post a comment / an admin's reply (parentId). */
const lessonActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("complete") }),
  // The comment's rules (commentSchema, the comment form's own schema) are checked by addComment, after
  // the lesson and the right to reply, with the spec's messages; here the schema only bounds the shape.
  z.object({
    intent: z.literal("comment"),
    content: z
      .string()
      .max(COMMENT_MAX_LENGTH * 4)
      .default(""),
    parentId: z.string().max(100).optional(),
  }),
]);

/** The answer to a body that is none of the two forms (an unknown intent). */
type UnknownIntentData = { intent: "unknown"; result: SubmissionResult<string[]>; code: "unknown_intent" };

/**
 * Refusals answer `{ intent, result, code }`: the conform reply of the form that was sent (what was
 * typed, field and form errors) and why, for the page to branch on; successes redirect with a toast.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const lessonId = requireUuidParam(params, "lessonId", () => courseNotFound("lesson"));
  const user = await requireUser(request, context);
  const submission = await parseForm(request, lessonActionSchema);
  if (submission.status !== "success") {
    const result = submission.reply({ formErrors: [BODY_MESSAGES.unknownIntent] });
    return data({ intent: "unknown", result, code: "unknown_intent" } satisfies UnknownIntentData, { status: 400 });
  }
  await requireFeature(context, "feature_teacher_flix");
  const viewer = { id: user.id, isAdmin: user.isAdmin };
  const input = submission.value;
  return input.intent === "complete"
    ? handleCompleteAction(context, viewer, lessonId, submission)
    : handleCommentAction(context, viewer, lessonId, { content: input.content, parentId: input.parentId ?? null }, submission);
}

export default function LessonRoute() {
  const { page, comments, isAdmin } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const commentFailure = actionData?.intent === "comment" ? actionData : null;
  const completionFailure = actionData?.intent === "complete" ? actionData : null;
  useLessonLiveRefresh(page.lesson.id);

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-8">
      <LessonHeader page={page} isAdmin={isAdmin} />
      <LessonVideo
        videoUrl={page.lesson.videoUrl}
        iframe={page.lesson.iframe}
        title={page.lesson.title}
        thumbnailUrl={page.lesson.thumbnailUrl}
        className="mt-5"
      />
      <div className="mt-5">
        <LessonActions page={page} completionFailure={completionFailure} />
      </div>
      <div className="mt-8">
        <LessonTabs
          tabs={[
            {
              id: "informacoes",
              icon: <BookIcon size={16} />,
              label: "Informações",
              panel: <AboutLesson page={page} />,
            },
            {
              id: "materiais",
              icon: <UploadIcon size={16} className="rotate-180" />,
              label: (
                <>
                  <span className="md:hidden">Downloads</span>
                  <span className="hidden md:inline">Materiais</span>
                </>
              ),
              panel: (
                <section
                  aria-labelledby="materiais-titulo"
                  className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-night-700 dark:bg-night-900"
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h2 id="materiais-titulo" className="text-lg font-bold">
                      Materiais da aula
                    </h2>
                    {isAdmin ? (
                      <Link
                        to={`/courses/lessons/${page.lesson.id}/materials#${ADMIN_PANEL_ID}`}
                        preventScrollReset
                        className={buttonVariants({ variant: "secondary" })}
                      >
                        <UploadIcon size={16} />
                        Enviar material
                      </Link>
                    ) : null}
                  </div>
                  <div className="mt-4">
                    <MaterialsList lessonId={page.lesson.id} materials={page.lesson.materials} canManage={isAdmin} showUploadLink={false} />
                  </div>
                </section>
              ),
            },
            {
              id: "comentarios",
              icon: <ChatIcon size={16} />,
              label: "Comentários",
              panel: <Comments threads={comments.threads} count={comments.count} isAdmin={isAdmin} failure={commentFailure} />,
            },
          ]}
        />
      </div>
      {/* Nested admin routes (/courses/lessons/:id/edit, /courses/lessons/:id/materials) render over this page. */}
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = CourseErrorBoundary;
