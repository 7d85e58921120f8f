// The console's texts (spec §8) without zod: the toggles and analytics page ships no schema.
export const CONFIG_MESSAGES = {
  failed: "Falha ao atualizar configuração. Tente novamente.",
  unknown: "Configuração não encontrada.",
  saved: "Configuração atualizada",
} as const;

export const ANALYTICS_ERROR = "Erro ao carregar análises";
