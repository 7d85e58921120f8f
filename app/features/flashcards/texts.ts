// The flashcards' pt-BR texts that both the server (refusals as form errors) and the pages use, and the
// codes the pages branch on (never on the texts). Client-safe.
import type { Tier } from "./plan";

/** Why a start, an answer or a restart was refused (the page branches on these). */
export type FlashcardRefusal =
  | "credits_exhausted"
  | "category_not_found"
  | "too_few_cards"
  | "nothing_to_review"
  | "question_not_found"
  | "already_answered"
  | "invalid_option"
  | "no_option"
  | "invalid";

/** [title, description] of each refusal (the credits one is the spec's dialog, see ~/components/credits). */
export const REFUSALS: Record<FlashcardRefusal, readonly [string, string]> = {
  credits_exhausted: ["Créditos Esgotados", "Seus créditos acabaram."],
  category_not_found: ["Categoria não encontrada", "Esta categoria não existe. Escolha outra na lista."],
  too_few_cards: ["Poucos cartões nesta categoria", "Esta categoria ainda não tem cartões suficientes para um jogo. Escolha outra categoria."],
  nothing_to_review: [
    "Nada para revisar",
    "Você ainda não tem palavras para revisar. Jogue uma categoria: as palavras que você errar voltam aqui.",
  ],
  question_not_found: ["Pergunta não encontrada", "Esta pergunta não existe neste jogo."],
  already_answered: ["Pergunta já respondida", "Você já respondeu esta pergunta. Siga para a próxima."],
  invalid_option: ["Opção inválida", "Escolha uma das quatro opções desta pergunta e toque em Verificar."],
  no_option: ["Escolha uma opção", "Escolha uma das opções antes de tocar em Verificar."],
  invalid: ["Ação inválida", "Não entendemos o pedido. Recarregue a página e tente de novo."],
};

export const LOADING_TEXT = "Buscando cartões...";

/** Spec §8: the flashcards' error toast and error screen. */
export const LOAD_ERROR = {
  toastTitle: "Erro",
  toastDescription: "Não foi possível carregar os cartões. Tente novamente.",
  title: "Não foi possível carregar",
  description: "Ocorreu um erro ao carregar os cartões. Verifique sua conexão e tente novamente.",
  retry: "Tentar novamente",
} as const;

export const QUESTION_TEXT = "What is this?";

/** A "Meu caderno" correction card in Revisão: the learner's own sentence, then the question. */
export const CORRECTION_TEXTS = {
  youSaid: "Você disse",
  question: "Como se diz corretamente?",
  rightForm: "A forma certa é",
} as const;

export const TIER_LABELS: Record<Tier, { title: string; message: string }> = {
  perfect: { title: "Perfeito!", message: "Você acertou todas. Incrível!" },
  good: { title: "Muito bem!", message: "Você está indo muito bem. Continue assim!" },
  okay: { title: "Bom esforço!", message: "Você está no caminho. Pratique mais um pouco!" },
  poor: { title: "Continue praticando!", message: "Toda palavra nova conta. Revise e tente de novo!" },
};

/** Alt text of a card's picture: never the answer before it is given. */
export const cardAlt = (position: number, total: number, word?: string | null) =>
  `Imagem do cartão ${position + 1} de ${total}${word ? `: ${word}` : ""}`;

export const cardsLabel = (count: number) => `${count} ${count === 1 ? "cartão" : "cartões"}`;
