// "Meu caderno"'s pt-BR strings.
import type { NotebookKind, NotebookState } from "./tables";

export const NOTEBOOK_TEXTS = {
  title: "Meu caderno",
  subtitle: "Os erros que a Nika encontrou no que você escreveu e falou, com a forma certa, para praticar até acertar.",
  empty:
    "Seu caderno ainda está vazio. Converse com a Nika por texto, por voz ou ao vivo: cada erro que ela encontrar no seu inglês aparece aqui, com a forma certa e uma explicação.",
  youSaid: "Você disse",
  correct: "O certo é",
  word: "Palavra",
  where: "Onde",
  inConversation: "Na conversa",
  atLevel: "No nível",
  inFlashcards: "Flashcards",
  dismiss: "Essa correção está errada",
  master: "Já sei",
  dismissedTitle: "Correção removida",
  dismissedDescription: "Obrigado! Isso ajuda a Nika a corrigir melhor.",
  masteredTitle: "Marcada como dominada",
  notFound: "Essa correção não está no seu caderno.",
  invalid: "Não foi possível entender o pedido. Recarregue a página e tente de novo.",
} as const;

export const KIND_LABELS: Record<NotebookKind, string> = {
  grammar: "Gramática",
  vocabulary: "Vocabulário",
  word_choice: "Escolha de palavras",
  false_friend: "Falsos cognatos",
  portuguese_word: "Palavras em português",
  spelling: "Ortografia",
  pronunciation: "Pronúncia",
};

export const STATE_LABELS: Record<NotebookState, string> = { new: "nova", practising: "praticando", mastered: "dominada" };

export const SOURCE_LABELS = {
  chat: "chat",
  voice: "mensagem de voz",
  live: "conversa ao vivo",
  lesson: "prática da aula",
  pronunciation: "jogo de pronúncia",
  flashcards: "flashcards",
} as const;

export const timesLabel = (count: number) => (count === 1 ? "1 vez" : `${count} vezes`);

/** "Resumo da conversa"'s pt-BR strings. */
export const REPORT_TEXTS = {
  title: "Resumo da conversa",
  notFound: "Conversa não encontrada",
  turns: "Suas falas",
  liveMinutes: "Minutos ao vivo",
  corrections: "Correções desta conversa",
  noCorrections: "Nenhuma correção nesta conversa. Muito bem!",
  focus: "Erros antigos que voltaram",
  focusIntro: "A Nika trouxe de volta estes pontos do seu caderno para você praticar.",
  usedRight: "Você usou certo",
  notYet: "Ainda não apareceu",
  empty:
    "Esta conversa ainda não tem falas suas. Converse com a Nika e volte aqui para ver o resumo: suas falas, as correções e o que você acertou.",
  backToConversation: "Voltar à conversa",
  inConversation: "Ver na conversa",
  notebook: "Abrir meu caderno",
} as const;

export const turnsLabel = (count: number) => (count === 1 ? "1 fala" : `${count} falas`);
export const minutesLabel = (count: number) => (count === 1 ? "1 minuto" : `${count} minutos`);
