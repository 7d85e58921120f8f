// The pronunciation game's words (pt-BR; spec §2, §8). Refusals are [title, description].

export const PRONUNCIATION_TEXT = {
  title: "Jogo de Pronúncia",
  intro: "Ouça a frase, grave a sua voz e veja a nota de cada palavra.",
  backToLabs: "Voltar ao Labs",
  backToLevels: "Voltar aos níveis",
  level: (level: number) => `Nível ${level}`,
  loadError: (message: string) => `Erro ao carregar os níveis: ${message}`,
  retry: "Tentar novamente",
  premiumTitle: "Pratique sem limites",
  premiumText: "Cada tentativa usa 1 crédito. Assine para ter mais créditos todo mês.",
  premiumCta: "Assinar Agora",
  levelNotFound: "Nível não encontrado",
  levelNotFoundText: "Escolha um nível de 1 a 100.",
  levelLoadError: "Erro ao carregar nível",
  levelsLoadFailure: "Erro ao carregar os níveis",
  loadTimeout: "Tempo esgotado ao carregar nível",
  invalidWebhook: "Invalid webhook response",
  listen: "Ouvir a frase",
  translation: "Ver tradução",
  steps: { recording: "Gravar", processing: "Processando", results: "Resultado" },
  record: "Gravar",
  stop: "Parar e enviar",
  processing: "Analisando a sua pronúncia...",
  uploadLabel: "Grave ou escolha um áudio (até 30 segundos)",
  uploadHint: "No celular, o botão abre o gravador. Fale a frase inteira em inglês.",
  send: "Enviar gravação",
  tryAgain: "Tentar novamente",
  nextLevel: "Próximo nível",
  overall: "Pontuação geral",
  scores: { accuracy: "Precisão", fluency: "Fluência", completeness: "Completude", pronunciation: "Pronúncia", prosody: "Entonação" },
  yourRecording: "Sua gravação",
  reference: "Pronúncia de referência",
  newBest: "Novo recorde neste nível!",
  best: (score: number) => `Seu recorde: ${score}`,
  words: "Palavra por palavra",
  heard: "O que entendemos",
  editLevels: "Editar níveis",
} as const;

/** The ErrorType of a word (Azure's names), in the learner's words. */
export const ERROR_TYPE_TEXT = {
  None: "Correta",
  Mispronunciation: "Pronúncia incorreta",
  Omission: "Palavra omitida",
  Insertion: "Palavra a mais",
} as const;

/** Word advice tiers (spec §9: 70 and 30). */
export const ADVICE_TEXT = {
  good: "Muito bem!",
  fair: "Quase lá — ouça a referência e tente de novo.",
  poor: "Precisa praticar esta palavra.",
} as const;

export type PronunciationRefusal =
  | "invalid"
  | "empty_audio"
  | "audio_too_short"
  | "audio_too_long"
  | "not_audio"
  | "unsupported_audio"
  | "scoring_unavailable"
  | "credits_exhausted"
  | "scorer_timeout"
  | "scorer_failed";

const AUDIO_ERROR = "Erro ao processar áudio";

export const REFUSALS: Record<PronunciationRefusal, readonly [string, string]> = {
  invalid: ["Envio inválido", "Grave ou escolha um arquivo de áudio e tente novamente."],
  empty_audio: [AUDIO_ERROR, "A gravação está vazia - tente novamente"],
  audio_too_short: [AUDIO_ERROR, "Gravação muito curta - tente novamente"],
  audio_too_long: [AUDIO_ERROR, "Gravação muito longa (máximo 30 segundos)"],
  not_audio: [AUDIO_ERROR, "O arquivo não é um áudio. Grave ou escolha um áudio."],
  unsupported_audio: [AUDIO_ERROR, "Este formato de áudio não é aceito aqui. Envie um arquivo WAV."],
  scoring_unavailable: [
    "Avaliação de pronúncia indisponível",
    "A avaliação de pronúncia não está disponível no momento. Nenhum crédito foi usado.",
  ],
  credits_exhausted: ["Créditos Esgotados", "Seus créditos acabaram."],
  scorer_timeout: [AUDIO_ERROR, "A avaliação demorou demais. Seu crédito foi devolvido; tente novamente."],
  scorer_failed: [AUDIO_ERROR, "Não foi possível avaliar a gravação. Seu crédito foi devolvido; tente novamente."],
};

export const REFUSAL_STATUS: Record<PronunciationRefusal, number> = {
  invalid: 400,
  empty_audio: 400,
  audio_too_short: 400,
  audio_too_long: 413,
  not_audio: 415,
  unsupported_audio: 415,
  scoring_unavailable: 503,
  credits_exhausted: 402,
  scorer_timeout: 504,
  scorer_failed: 502,
};
