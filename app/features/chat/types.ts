// What the chat screen receives from its loader and keeps in state (shared by server and client).
import type { ChatModeId } from "~/features/conversation";

export type ClientMessage = {
  id: string;
  role: "user" | "nika";
  text: string;
  audioUrl: string | null;
  /** A voice message (its text is the transcription). */
  voice: boolean;
  /** The provider failed on this turn; it stays in the transcript but not in Nika's context. */
  failed: boolean;
  /** Client only: a voice message waiting for its transcription, or Nika still typing. */
  processing?: boolean;
  /** Client only: the learner's recording as a blob: URL, before the server has it. */
  localAudioUrl?: string | null;
};

export type ChatFormError = { code: string; message: string; title?: string };

export type ChatPageData = {
  conversationId: string;
  mode: { id: ChatModeId; title: string; language: "pt" | "en" };
  basePath: string;
  backTo: string;
  backLabel: string;
  lesson: { title: string; key: string } | null;
  messages: ClientMessage[];
  nikaAvailable: boolean;
  voiceAvailable: boolean;
  credits: number;
  englishLevel: string | null;
  englishLevelAt: string | null;
  /** The four menu modes for the mode drawer, with their flags. */
  modes: { id: ChatModeId; title: string; path: string; enabled: boolean }[];
  /** No JS: the greeting failed while the server waited for it. */
  greetingError: ChatFormError | null;
  /** No JS: seconds before the page asks for the greeting again (0; more while another tab holds it). */
  greetingRetrySeconds: number;
  /** "Resumo da conversa": where leaving the chat goes once the learner has said something, and a link on the page. */
  reportHref: string;
  /** "Conversa ao vivo" of this conversation, when it is configured and on (absent otherwise). */
  liveHref: string | null;
};
