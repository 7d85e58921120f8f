// The lesson comment form (spec §4, §8): its rules, shared by the browser (conform, useSchemaForm) and
// addComment (the authority, which checks them after the lesson and the right to reply), and the
// shape of the action's answer when a comment is refused.
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { COMMENT_MAX_LENGTH } from "./format";

export const COMMENT_MESSAGES = {
  empty: "O comentário não pode ficar vazio.",
  tooLong: `O comentário pode ter no máximo ${COMMENT_MAX_LENGTH} caracteres.`,
  adminOnly: "Apenas administradores podem responder comentários.",
  replyToReply: "Só é possível responder a comentários principais desta aula.",
} as const;

/** Non-empty trimmed text up to 5000 characters; a blank parentId is a top-level comment (null). */
export const commentSchema = z.object({
  content: z.string({ error: COMMENT_MESSAGES.empty }).trim().min(1, COMMENT_MESSAGES.empty).max(COMMENT_MAX_LENGTH, COMMENT_MESSAGES.tooLong),
  parentId: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null)),
});

/** What the comment and reply forms post to the lesson page's action. */
export const commentFormSchema = commentSchema.extend({ intent: z.literal("comment") });

/** The comment form's fields, as typed (a type only: the browser's form loads no zod). */
export type CommentFormFields = z.input<typeof commentFormSchema>;

/**
 * Why a comment was refused; the page branches on it, never on the message. `invalid_content` comes
 * with the schema's message as the field error of `content`, the others as the form error.
 */
export type CommentRefusal = "invalid_content" | "admin_only" | "invalid_parent";

/**
 * The lesson action's answer to a refused comment: the conform reply (what was typed, including the
 * `parentId` of a reply form, and the errors) and the refusal's code.
 */
export type CommentActionData = { intent: "comment"; result: SubmissionResult<string[]>; code: CommentRefusal };
