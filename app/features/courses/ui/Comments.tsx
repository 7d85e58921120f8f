// Comments of a lesson (spec §4, §6, §8): "Comentários (N)", the comment form, top-level comments with
// one level of replies, labels Admin / Você / name / Usuário, relative times in pt-BR. The forms are
// conform forms (ConformForm, a POST) whose rules the server checks (the comment schema), so posting works
// without JavaScript (PRG back to the comment) and a refusal comes back as the action's conform reply, typed text included;
// with JS the submit is disabled while blank or pending, and the form clears (reply form closes) after success.
import { getTextareaProps } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { buttonVariants } from "~/components/button";
import { ConformForm, useServerForm } from "~/components/form-fields";
import { ChatIcon, ReplyIcon } from "~/components/icons";
import { toast } from "~/components/Toaster";
import { avatarUrl } from "~/lib/avatars";
import type { CommentActionData, CommentFormFields } from "../comment-form";
import type { CommentThread, CommentView } from "../comments.server";
import { COMMENT_MAX_LENGTH } from "../format";
import { cardClass } from "./parts";

/**
 * What getZodConstraint(commentFormSchema) gives, without zod in the browser (a unit test holds them equal); the
 * textarea's maxLength is its own (the schema trims, so conform derives none).
 */
export const COMMENT_CONSTRAINT = { content: { required: true }, intent: { required: true }, parentId: { required: false } };

export const COMMENT_FAILURE = { title: "Erro", description: "Não foi possível adicionar o comentário." } as const;

type Props = {
  threads: CommentThread[];
  count: number;
  isAdmin: boolean;
  failure: CommentActionData | null;
};

export function Comments({ threads, count, isAdmin, failure }: Props) {
  const [searchParams] = useSearchParams();
  const replyParam = searchParams.get("responder");
  const [replyTo, setReplyTo] = useState<string | null>(isAdmin ? replyParam : null);
  useEffect(() => setReplyTo(isAdmin ? replyParam : null), [replyParam, isAdmin]);
  // A failed reply keeps its form open (also after the page re-renders without JS).
  const failedForm = failure ? failedFormOf(failure) : undefined;
  const openReply = failedForm ?? replyTo;

  useEffect(() => {
    if (failure) toast({ type: "error", ...COMMENT_FAILURE });
  }, [failure]);

  return (
    <section id="comentarios" aria-labelledby="comentarios-titulo" className={`${cardClass} scroll-mt-20 p-4 sm:p-6`}>
      <h2 id="comentarios-titulo" className="flex items-center gap-2 text-lg font-bold">
        <ChatIcon size={20} className="text-indigo-600 dark:text-indigo-300" />
        Comentários ({count})
      </h2>

      <CommentForm
        parentId={null}
        label="Escreva um comentário"
        placeholder="Compartilhe uma dúvida ou o que você aprendeu nesta aula…"
        submitLabel="Comentar"
        failure={failedForm === null ? failure : null}
      />

      {threads.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center dark:border-night-700">
          <p className="font-semibold">Nenhum comentário ainda.</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">Seja o primeiro a comentar!</p>
        </div>
      ) : (
        <ol className="mt-6 space-y-4" aria-label="Lista de comentários">
          {threads.map((thread) => (
            <li key={thread.id}>
              <CommentArticle comment={thread}>
                {isAdmin ? (
                  openReply === thread.id ? (
                    <CommentForm
                      parentId={thread.id}
                      label="Escreva uma resposta"
                      placeholder="Responda a este comentário…"
                      submitLabel="Responder"
                      failure={failedForm === thread.id ? failure : null}
                      onCancel={() => setReplyTo(null)}
                      onDone={() => setReplyTo(null)}
                      autoFocus
                    />
                  ) : (
                    <ReplyOpener commentId={thread.id} onOpen={() => setReplyTo(thread.id)} />
                  )
                ) : null}
              </CommentArticle>
              {thread.replies.length > 0 ? (
                <ol className="mt-2 ml-5 space-y-2 border-l-2 border-indigo-200 pl-4 sm:ml-8 dark:border-indigo-400/30" aria-label="Respostas">
                  {thread.replies.map((reply) => (
                    <li key={reply.id}>
                      <CommentArticle comment={reply} reply />
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Which form a refused comment came from: the parent's id for a reply form, null for the new-comment form. */
function failedFormOf(failure: CommentActionData): string | null {
  const parentId = failure.result.initialValue?.parentId;
  return typeof parentId === "string" && parentId !== "" ? parentId : null;
}

function CommentArticle({ comment, reply, children }: { comment: CommentView; reply?: boolean; children?: React.ReactNode }) {
  const initial = comment.authorLabel.trim().charAt(0).toUpperCase() || "U";
  return (
    <article
      data-testid="comment"
      id={`comentario-${comment.id}`}
      className={`scroll-mt-24 rounded-xl p-3 sm:p-4 ${reply ? "bg-indigo-50/70 dark:bg-indigo-400/10" : "bg-slate-50 dark:bg-night-800/60"}`}
    >
      <header className="flex items-center gap-2">
        {comment.authorAvatar ? (
          <img
            src={avatarUrl(comment.authorAvatar)}
            alt=""
            width={32}
            height={32}
            data-testid="comment-avatar"
            className={`size-8 shrink-0 rounded-full p-0.5 ${comment.authorIsAdmin ? "bg-indigo-600" : "bg-slate-200 dark:bg-night-700"}`}
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-300 text-sm font-bold text-slate-800 dark:bg-night-700 dark:text-slate-100"
          >
            {initial}
          </span>
        )}
        <span
          className={
            comment.authorIsAdmin ? "font-extrabold text-indigo-700 dark:text-indigo-300" : "font-medium text-slate-900 dark:text-slate-100"
          }
          data-testid="comment-author"
        >
          {comment.authorLabel}
        </span>
        <span aria-hidden="true" className="text-slate-400">
          ·
        </span>
        <time dateTime={comment.createdAt} className="text-xs text-slate-600 dark:text-slate-300">
          {comment.createdAtLabel}
        </time>
      </header>
      {/* Rendered as text: React escapes it, so `<script>` shows as typed. */}
      <p
        className="mt-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800 dark:text-slate-100"
        data-testid="comment-content"
      >
        {comment.content}
      </p>
      {children ? <div className="mt-2">{children}</div> : null}
    </article>
  );
}

/**
 * "Responder": with JavaScript it opens the reply form in place; without it the link reloads the
 * page with `?responder={id}`, which renders that form open.
 */
function ReplyOpener({ commentId, onOpen }: { commentId: string; onOpen: () => void }) {
  return (
    <a
      href={`?tab=comentarios&responder=${commentId}#comentario-${commentId}`}
      role="button"
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
      onKeyDown={(event) => {
        if (event.key === " ") {
          event.preventDefault();
          onOpen();
        }
      }}
      className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-400/10"
    >
      <ReplyIcon size={16} />
      Responder
    </a>
  );
}

/** True while this form's submission (and the reload after it) is in flight. */
function useCommentPending(parentId: string | null) {
  const navigation = useNavigation();
  const formData = navigation.formData;
  if (navigation.state === "idle" || !formData || formData.get("intent") !== "comment") return false;
  return (formData.get("parentId") || null) === parentId;
}

function CommentForm({
  parentId,
  label,
  placeholder,
  submitLabel,
  failure,
  onCancel,
  onDone,
  autoFocus,
}: {
  parentId: string | null;
  label: string;
  placeholder: string;
  submitLabel: string;
  failure: CommentActionData | null;
  onCancel?: () => void;
  onDone?: () => void;
  autoFocus?: boolean;
}) {
  const id = parentId ? `resposta-${parentId}` : "novo-comentario";
  const errorId = `${id}-erro`;
  // The rules (commentSchema) are the server's: the browser cannot break them (submit disabled while blank,
  // maxLength), so the page loads no schema library; the server's reply fills the form, with or without JavaScript.
  const [form, fields] = useServerForm<CommentFormFields>(failure?.result, { id: `${id}-formulario`, constraint: COMMENT_CONSTRAINT });
  const resetForm = form.reset;
  const error = fields.content.errors?.[0] ?? form.errors?.[0];
  const blank = (fields.content.value ?? "").trim() === "";
  const [hydrated, setHydrated] = useState(false);
  const pending = useCommentPending(parentId);
  const wasPending = useRef(false);

  useEffect(() => setHydrated(true), []);
  // Success = the submission finished without an error for this form (the action redirected).
  useEffect(() => {
    if (pending) {
      wasPending.current = true;
      return;
    }
    if (!wasPending.current) return;
    wasPending.current = false;
    if (!failure) {
      resetForm();
      onDone?.();
    }
  }, [pending, failure, onDone, resetForm]);

  const { key, ...textareaProps } = getTextareaProps(fields.content);
  return (
    <ConformForm form={form} preventScrollReset className={parentId ? "mt-1" : "mt-4"}>
      <input type="hidden" name="intent" value="comment" />
      {parentId ? <input type="hidden" name="parentId" value={parentId} /> : null}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea
        key={key}
        {...textareaProps}
        id={id}
        placeholder={placeholder}
        rows={parentId ? 2 : 3}
        maxLength={COMMENT_MAX_LENGTH}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- only after the learner pressed "Responder": focus goes to the field they opened
        autoFocus={autoFocus && hydrated}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="block w-full resize-y rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none aria-[invalid=true]:border-red-600 dark:border-night-700 dark:bg-night-950 dark:text-white dark:placeholder:text-slate-400"
      />
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {COMMENT_FAILURE.description} {error}
        </p>
      ) : null}
      <div className="mt-2 flex justify-end gap-2">
        {onCancel && parentId ? (
          // A link without JavaScript (back to the page without `?responder`), a button with it.
          <a
            href={`?tab=comentarios#comentario-${parentId}`}
            role="button"
            onClick={(event) => {
              event.preventDefault();
              onCancel();
            }}
            onKeyDown={(event) => {
              if (event.key === " ") {
                event.preventDefault();
                onCancel();
              }
            }}
            className={buttonVariants({ variant: "secondary" })}
          >
            Cancelar
          </a>
        ) : null}
        <button type="submit" disabled={hydrated && (pending || blank)} aria-busy={pending || undefined} className={buttonVariants()}>
          {submitLabel}
        </button>
      </div>
    </ConformForm>
  );
}
