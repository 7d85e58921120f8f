// The courses banner (hero of /courses): title, subtitle (`||` → line break), background image or
// gradient, active. One active banner per section.
import { AdminForm } from "~/components/admin/AdminForm";
import { ImageField } from "~/components/admin/fields";
import { CheckboxField, Field, TextareaField, useSchemaForm } from "~/components/forms";
import type { AdminActionData } from "~/lib/admin-forms";
import type { siteBanners } from "../tables";
import { bannerSchema, LIMITS } from "./schemas";

export type BannerFormValues = Pick<
  typeof siteBanners.$inferSelect,
  "title" | "subtitle" | "backgroundImageUrl" | "backgroundGradient" | "isActive"
>;

export const DEFAULT_GRADIENT = "linear-gradient(135deg, #312e81 0%, #6d28d9 55%, #be185d 100%)";

export function BannerForm({
  banner,
  actionData,
  action,
  closeTo,
}: {
  banner: BannerFormValues | null;
  actionData?: AdminActionData;
  action: string;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(bannerSchema, actionData?.result, {
    id: "banner-cursos",
    shouldValidate: "onBlur",
    defaultValue: {
      title: banner?.title ?? "",
      subtitle: banner?.subtitle ?? "",
      background_image_url: banner?.backgroundImageUrl ?? "",
      background_gradient: banner?.backgroundGradient ?? (banner ? "" : DEFAULT_GRADIENT),
      is_active: banner ? (banner.isActive ? "on" : undefined) : "on",
    },
  });

  return (
    <AdminForm form={form} action={action} closeTo={closeTo} submitLabel="Salvar banner">
      <Field meta={fields.title} label="Título" maxLength={LIMITS.bannerTitle} hint="Vazio: “Cursos em Vídeo”." />
      <TextareaField meta={fields.subtitle} label="Subtítulo" rows={2} hint="Use || para quebrar a linha. Até 500 caracteres." />
      <ImageField
        urlMeta={fields.background_image_url}
        fileMeta={fields.background_image_file}
        label="Imagem de fundo"
        alt="Imagem de fundo atual do banner"
        aspect="aspect-video"
      />
      <Field
        meta={fields.background_gradient}
        label="Gradiente (sem imagem)"
        placeholder={DEFAULT_GRADIENT}
        hint="Usado quando não há imagem. Ex.: linear-gradient(135deg, #312e81 0%, #be185d 100%)."
      />
      <CheckboxField meta={fields.is_active} label="Banner ativo" hint="Ativar este banner desativa os outros da página de cursos." />
    </AdminForm>
  );
}
