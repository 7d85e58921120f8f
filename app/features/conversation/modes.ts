// Nika's chat modes (spec §2, §3): the four menu cards, the English level test and lesson practice.
// Shared by server and client (no server-only imports).
import type { FlagKey } from "~/lib/flags";

export const CHAT_MODES = ["portuguese", "english", "game", "roleplay", "english-test", "lesson"] as const;
export type ChatModeId = (typeof CHAT_MODES)[number];

export type ChatModeInfo = {
  id: ChatModeId;
  title: string;
  /** pt-BR, for the menu card and the mode drawer. */
  description: string;
  /** The language Nika mostly speaks in this mode (also picks the browser TTS voice). */
  language: "pt" | "en";
  /** The app_config flag that gates it; null for lesson practice (not gated). */
  flag: FlagKey | null;
  /** Where the screen lives. */
  path: string | null;
  /** Shown as a card on /chat-with-nika. */
  inMenu: boolean;
};

export const CHAT_MODE_INFO: Record<ChatModeId, ChatModeInfo> = {
  portuguese: {
    id: "portuguese",
    title: "Começar em Português",
    description: "Para iniciantes: a Nika explica tudo em português e te ajuda a dar os primeiros passos no inglês.",
    language: "pt",
    flag: "feature_chat_portuguese",
    path: "/chat-with-nika/portuguese",
    inMenu: true,
  },
  english: {
    id: "english",
    title: "Tópico em Inglês",
    description: "Converse em inglês sobre um tópico do dia a dia, com correções gentis quando precisar.",
    language: "en",
    flag: "feature_chat_english",
    path: "/chat-with-nika/english",
    inMenu: true,
  },
  game: {
    id: "game",
    title: "Game",
    description: "Jogos de palavras em inglês para aprender vocabulário se divertindo.",
    language: "en",
    flag: "feature_chat_game",
    path: "/chat-with-nika/game",
    inMenu: true,
  },
  roleplay: {
    id: "roleplay",
    title: "Role Play",
    description: "Pratique situações reais: no restaurante, no aeroporto, numa entrevista de emprego e mais.",
    language: "en",
    flag: "feature_chat_roleplay",
    path: "/chat-with-nika/roleplay",
    inMenu: true,
  },
  "english-test": {
    id: "english-test",
    title: "Teste de Nível de Inglês",
    description: "Um teste curto e adaptativo com a Nika para descobrir seu nível de inglês (A1 a C2).",
    language: "en",
    flag: "feature_chat_english_test",
    path: "/english-level-test",
    inMenu: false,
  },
  lesson: {
    id: "lesson",
    title: "Praticar a Aula",
    description: "Pratique com a Nika o conteúdo da aula que você assistiu.",
    language: "en",
    flag: null,
    path: null,
    inMenu: false,
  },
};

/** The four cards of /chat-with-nika, in menu order. */
export const MENU_MODES: ChatModeInfo[] = CHAT_MODES.map((id) => CHAT_MODE_INFO[id]).filter((m) => m.inMenu);

export function isChatMode(value: unknown): value is ChatModeId {
  return typeof value === "string" && (CHAT_MODES as readonly string[]).includes(value);
}

/** The menu slug of /chat-with-nika/{slug}: only the four menu modes. */
export function menuModeFromSlug(slug: string | undefined): ChatModeId | null {
  return isChatMode(slug) && CHAT_MODE_INFO[slug].inMenu ? slug : null;
}

/** "M01A02" → { module: 1, lesson: 2 } (spec §3: M{module 2-digit}A{lesson 2-digit}); anything else → null. */
export function parseLessonKey(key: string | undefined | null): { module: number; lesson: number } | null {
  const match = /^M(\d{2,})A(\d{2,})$/.exec(key ?? "");
  if (!match) return null;
  return { module: Number(match[1]), lesson: Number(match[2]) };
}
