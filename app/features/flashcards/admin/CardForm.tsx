// A flashcard's form (add and edit): word, translation, distractor group (the category's groups are
// suggested), picture and recording uploads, and for shipped content a way back to the original
// picture and recording. Changing the word drops the shipped recording (it says the old word).
import { AdminForm } from "~/components/admin/AdminForm";
import { AudioField, ImageField } from "~/components/admin/fields";
import { CheckboxField, Field, useSchemaForm } from "~/components/forms";
import type { AdminActionData } from "~/lib/admin-forms";
import type { CardForEdit, GroupOption } from "./cards.server";
import { cardSchema, LIMITS, newCardSchema } from "./schemas";

export const WORD_AUDIO_HINT =
  "Mudar a palavra descarta a gravação original (ela diz a palavra antiga): sem um áudio enviado, o jogo fala a nova palavra com a voz do navegador.";

export function CardForm({
  card,
  groups,
  actionData,
  action,
  closeTo,
}: {
  /** The card being edited; none when adding. */
  card?: CardForEdit;
  groups: GroupOption[];
  actionData?: AdminActionData;
  action: string;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(card ? cardSchema : newCardSchema, actionData?.result, {
    id: card ? `editar-cartao-${card.id}` : "novo-cartao",
    shouldValidate: "onBlur",
    defaultValue: { word: card?.word ?? "", translation: card?.translation ?? "", distractor_group: card?.distractorGroup ?? "" },
  });
  const groupsId = `${form.id}-grupos`;
  const audioEmpty = card
    ? "Sem gravação: o jogo fala a palavra com a voz do navegador."
    : "Opcional: sem gravação, o jogo fala a palavra com a voz do navegador.";

  return (
    <AdminForm form={form} action={action} closeTo={closeTo} submitLabel={card ? "Salvar cartão" : "Adicionar cartão"}>
      <Field
        meta={fields.word}
        label="Palavra em inglês"
        maxLength={LIMITS.word}
        hint={card?.hasShippedAudio ? WORD_AUDIO_HINT : `Até ${LIMITS.word} caracteres.`}
      />
      <Field meta={fields.translation} label="Tradução" maxLength={LIMITS.translation} hint="Mostrada depois da resposta." />
      <Field
        meta={fields.distractor_group}
        label="Grupo de distratores"
        list={groupsId}
        maxLength={LIMITS.group}
        hint="Cartões do mesmo grupo (quase sinônimos, como doctor e nurse) nunca são opções da mesma pergunta. Vazio: um grupo só deste cartão."
      />
      <datalist id={groupsId}>
        {groups.map((group) => (
          <option key={group.value} value={group.value}>
            {group.words.join(", ")}
          </option>
        ))}
      </datalist>
      <ImageField
        currentUrl={card?.imageUrl}
        fileMeta={fields.image_file}
        label={card ? "Imagem" : "Imagem (obrigatória)"}
        alt={card ? `Imagem atual do cartão ${card.word}` : "Imagem escolhida"}
        aspect="aspect-square"
      >
        {card?.canRestoreImage ? (
          <CheckboxField meta={fields.restore_image} label="Voltar à imagem original" hint="A imagem enviada é apagada." />
        ) : null}
      </ImageField>
      <AudioField currentUrl={card?.audioUrl ?? null} fileMeta={fields.audio_file} label="Áudio da palavra" emptyText={audioEmpty}>
        {card?.hasAudioUpload ? (
          <CheckboxField
            meta={fields.restore_audio}
            label={card.hasShippedAudio ? "Voltar ao áudio original" : "Remover o áudio enviado"}
            hint={card.hasShippedAudio ? "O áudio enviado é apagado." : "O áudio enviado é apagado; o jogo usa a voz do navegador."}
          />
        ) : null}
      </AudioField>
    </AdminForm>
  );
}
