// "Editar Aula" (spec §5 lesson form): title, description, video URL or embed code, thumbnail,
// duration and order.
import { AdminForm } from "~/components/admin/AdminForm";
import { ImageField } from "~/components/admin/fields";
import { Field, TextareaField, useSchemaForm } from "~/components/forms";
import type { AdminActionData } from "~/lib/admin-forms";
import type { lessons } from "../tables";
import { lessonSchema, LIMITS } from "./schemas";

export type LessonFormValues = Pick<
  typeof lessons.$inferSelect,
  "id" | "title" | "description" | "videoUrl" | "iframe" | "thumbnailUrl" | "durationSeconds" | "orderIndex"
>;

export function LessonForm({
  lesson,
  actionData,
  action,
  closeTo,
}: {
  lesson: LessonFormValues;
  actionData?: AdminActionData;
  action: string;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(lessonSchema, actionData?.result, {
    id: `aula-${lesson.id}`,
    shouldValidate: "onBlur",
    defaultValue: {
      title: lesson.title,
      description: lesson.description ?? "",
      video_url: lesson.videoUrl ?? "",
      iframe: lesson.iframe ?? "",
      thumbnail_url: lesson.thumbnailUrl ?? "",
      duration_seconds: String(lesson.durationSeconds),
      order_index: String(lesson.orderIndex),
    },
  });

  return (
    <AdminForm form={form} action={action} closeTo={closeTo} submitLabel="Salvar alterações">
      <Field meta={fields.title} label="Título" maxLength={LIMITS.title} />
      <TextareaField meta={fields.description} label="Descrição" rows={4} hint="Opcional, até 1000 caracteres." />
      <Field
        meta={fields.video_url}
        label="URL do vídeo"
        type="url"
        inputMode="url"
        placeholder="https://www.youtube.com/watch?v=…"
        hint="YouTube, Vimeo ou arquivo .mp4, .webm ou .ogg."
      />
      <TextareaField
        meta={fields.iframe}
        label="Código iframe (opcional)"
        rows={3}
        mono
        placeholder={'<iframe src="https://player.vimeo.com/video/…"></iframe>'}
        hint="Somente players do YouTube, Vimeo, Wistia, Loom, Bunny Stream, Cloudflare Stream, Panda Video, Dailymotion ou Google Drive. Só o endereço (src) é usado."
      />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field meta={fields.duration_seconds} label="Duração (segundos)" type="number" min={0} inputMode="numeric" />
        <Field meta={fields.order_index} label="Ordem" type="number" min={0} inputMode="numeric" />
      </div>
      <ImageField
        urlMeta={fields.thumbnail_url}
        fileMeta={fields.thumbnail_file}
        label="Miniatura da aula"
        alt={`Miniatura atual da aula ${lesson.title}`}
        aspect="aspect-video"
      />
    </AdminForm>
  );
}
