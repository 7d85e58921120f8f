// Stored objects by key: `/media/<key>`. Images and flashcard recordings (unique keys, never
// rewritten) are public with a year-long immutable cache, revalidate by ETag and answer byte ranges
// (audio elements seek with them); materials never load inline here — they go through the lesson's
// download route (signed-in learners, served as an attachment).
import { redirect } from "react-router";
import type { RouteHandle } from "~/lib/access";
import { notFound } from "~/server/request.server";
import {
  CHAT_AUDIO_FOLDER,
  isValidKey,
  MATERIALS_FOLDER,
  mediaBucket,
  PRONUNCIATION_ATTEMPTS_FOLDER,
  serveObject,
} from "~/server/storage.server";
import type { Route } from "./+types/media.$";

export const handle: RouteHandle = { access: "public" };

const fileNotFound = () => notFound("Arquivo não encontrado");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  // Learners' recordings are private: /resources/chat-audio/* and /resources/pronunciation-audio/*
  // serve them, to their owner.
  const isPrivate = key.startsWith(`${CHAT_AUDIO_FOLDER}/`) || key.startsWith(`${PRONUNCIATION_ATTEMPTS_FOLDER}/`);
  if (!isValidKey(key) || isPrivate) return fileNotFound();
  if (key.startsWith(`${MATERIALS_FOLDER}/`)) {
    const [, lessonId, file] = key.split("/");
    if (!lessonId || !file) return fileNotFound();
    return redirect(`/courses/lessons/${encodeURIComponent(lessonId)}/materials/${encodeURIComponent(file)}/download`);
  }
  const served = await serveObject(mediaBucket(context), key, {
    request,
    disposition: "media",
    cacheControl: "public, max-age=31536000, immutable",
    ranges: true,
  });
  return served ?? fileNotFound();
}
