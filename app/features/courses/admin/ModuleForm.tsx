// "Editar Módulo" (spec §5 module form): title, description, image, banner image, banner title and
// subtitle, availability, order.
import { AdminForm } from "~/components/admin/AdminForm";
import { ImageField } from "~/components/admin/fields";
import { Field, SelectField, TextareaField, useSchemaForm } from "~/components/forms";
import type { AdminActionData } from "~/lib/admin-forms";
import type { modules } from "../tables";
import { LIMITS, moduleSchema } from "./schemas";

export type ModuleFormValues = Pick<
  typeof modules.$inferSelect,
  "id" | "title" | "description" | "orderIndex" | "imageUrl" | "bannerUrl" | "bannerTitle" | "bannerSubtitle" | "available"
>;

export function ModuleForm({
  module,
  actionData,
  action,
  closeTo,
}: {
  module: ModuleFormValues;
  actionData?: AdminActionData;
  action: string;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(moduleSchema, actionData?.result, {
    id: `modulo-${module.id}`,
    shouldValidate: "onBlur",
    defaultValue: {
      title: module.title,
      description: module.description ?? "",
      image_url: module.imageUrl ?? "",
      banner_url: module.bannerUrl ?? "",
      banner_title: module.bannerTitle ?? "",
      banner_subtitle: module.bannerSubtitle ?? "",
      available: module.available,
      order_index: String(module.orderIndex),
    },
  });

  return (
    <AdminForm form={form} action={action} closeTo={closeTo} submitLabel="Salvar alterações">
      <Field meta={fields.title} label="Título" maxLength={LIMITS.title} />
      <TextareaField meta={fields.description} label="Descrição" rows={3} hint="Opcional, até 500 caracteres." />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <SelectField
          meta={fields.available}
          label="Disponibilidade"
          options={[
            { value: "yes", label: "Disponível" },
            { value: "no", label: "Em breve" },
          ]}
        />
        <Field
          meta={fields.order_index}
          label="Ordem"
          type="number"
          min={0}
          inputMode="numeric"
          hint="0 ou mais; define a posição no catálogo."
        />
      </div>
      <ImageField
        urlMeta={fields.image_url}
        fileMeta={fields.image_file}
        label="Imagem do módulo (4:5)"
        alt={`Imagem atual do módulo ${module.title}`}
      />
      <ImageField
        urlMeta={fields.banner_url}
        fileMeta={fields.banner_file}
        label="Imagem do banner"
        alt={`Banner atual do módulo ${module.title}`}
        aspect="aspect-video"
      />
      <Field meta={fields.banner_title} label="Título do banner" hint="Opcional. Padrão: Módulo {ordem}: {título}." />
      <TextareaField
        meta={fields.banner_subtitle}
        label="Subtítulo do banner"
        rows={2}
        hint="Opcional, até 500 caracteres. Padrão: a descrição."
      />
    </AdminForm>
  );
}
