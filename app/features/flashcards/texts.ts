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
  | "invalid"
  | "not_pronunciation"
  | "scoring_unavailable"
  | "scorer_timeout"
  | "scorer_failed";

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
  not_pronunciation: ["Este cartão não pede gravação", "Escolha uma das opções deste cartão e toque em Verificar."],
  // A pronunciation card's scorer: nothing was spent (the game's credit covers the card), and the card waits unanswered.
  scoring_unavailable: [
    "Avaliação de pronúncia indisponível",
    "A avaliação de pronúncia não está disponível no momento. O cartão continua esperando sua gravação.",
  ],
  scorer_timeout: ["Erro ao processar áudio", "A avaliação demorou demais. O cartão continua esperando: grave de novo."],
  scorer_failed: ["Erro ao processar áudio", "Não foi possível avaliar a gravação. O cartão continua esperando: grave de novo."],
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

/** A pronunciation word in Revisão: hear it, record it, Verificar; the score only after. */
export const PRONUNCIATION_CARD_TEXTS = {
  question: "Pronuncie a palavra",
  fromSentence: "Da frase do Jogo de Pronúncia",
  listen: (word: string) => `Ouvir ${word}`,
  record: "Gravar",
  recordAgain: "Gravar de novo",
  stop: "Parar",
  recording: (seconds: number) => `Gravando… ${seconds}s`,
  recorded: "Gravação pronta. Toque em Verificar.",
  uploadLabel: "Grave ou escolha um áudio da palavra",
  uploadLabelWithRecorder: "Ou escolha um arquivo de áudio",
  uploadHint: "No celular, o botão abre o gravador. Fale só a palavra, em inglês.",
  score: (score: number) => `Sua nota: ${score} de 100.`,
  right: "Sua pronúncia está boa: esta palavra volta mais tarde.",
  wrong: "Abaixo de 60: esta palavra volta logo para você praticar.",
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
