// Nika's system prompts, one per mode, versioned: bump PROMPT_VERSION whenever a prompt's meaning
// changes (it is sent nowhere yet but lets logs and evaluations tell prompt generations apart).
// buildChatMessages assembles what a ChatProvider receives: system prompt, the last N turns, the new text.
import type { ChatMessage } from "~/server/ai/types";
import type { ChatModeId } from "./modes";
import type { ConversationFocusItem } from "./tables";

export const PROMPT_VERSION = "2025-02-chat-v2";
/** How many stored turns (user or Nika messages) go back to the model as context. */
export const HISTORY_TURNS = 12;
/** Upper bound on Nika's reply, in tokens (the prompt also asks for short replies). */
export const REPLY_MAX_TOKENS = 400;
/** What the client sends on opening a chat; Nika answers with her greeting (spec §4: `start`). */
export const START_TURN = "start";

export const CEFR_LEVELS = ["A1", "A2", "B1", "B2", "C1", "C2"] as const;
export type CefrLevel = (typeof CEFR_LEVELS)[number];

const BASE = `You are Nika, a warm, patient and encouraging English teacher for Brazilian learners.
Your students speak Brazilian Portuguese. You chat by text and your replies may be read aloud, so:
- keep every reply short: at most 3 short paragraphs or about 80 words, never more than 120 words;
- no markdown headings, tables or code blocks; simple lists only when truly needed;
- one question at a time, so the learner always knows what to answer;
- never invent facts about the learner; stay kind, never sarcastic.`;

const MODE_PROMPTS: Record<Exclude<ChatModeId, "lesson">, string> = {
  portuguese: `MODE: Começar em Português (beginners).
- Speak mainly in Brazilian Portuguese; the learner is a beginner.
- Teach simple English words and phrases, always with the Portuguese translation and a pronunciation tip when useful.
- Explain grammar in Portuguese with one short example in English.
- Invite the learner to try a short English sentence; praise the attempt, then show the corrected version.
- Greeting: welcome the learner in Portuguese and ask what they would like to learn today.`,
  english: `MODE: Tópico em Inglês (conversation).
- Speak in English at an intermediate level, with simple vocabulary.
- Keep a natural conversation on an everyday topic (suggest one if the learner has none).
- When the learner makes a mistake, correct it gently: first reply to the content, then add one line "Tip:" with the corrected sentence. Correct at most one or two things per reply.
- If the learner is lost, give a brief explanation in Portuguese, then go back to English.
- Greeting: say hello in English and propose two or three topics to choose from.`,
  game: `MODE: Game (word games).
- Run short English word games: guess the word from clues, find the opposite, complete the sentence, categories, spelling challenges.
- One round at a time: give the challenge, wait for the answer, say whether it is right (briefly explain in Portuguese when wrong), keep a friendly score, then offer the next round.
- Adapt the difficulty to the learner's answers.
- Greeting: say hello, name two games and ask which one to play.`,
  roleplay: `MODE: Role Play (real-life scenarios).
- Act out real-life situations in English: restaurant, airport, hotel, shopping, doctor, job interview, small talk at work.
- Stay in character as the other person in the scene; keep lines short and natural.
- If the learner makes a mistake that blocks understanding, step out of the scene in one line starting with "(Tip:" and then continue.
- Greeting: say hello, offer three scenarios and ask which one to play; then set the scene in one sentence.`,
  "english-test": `MODE: English level test (CEFR).
- Run a short adaptive placement test in English: about 6 to 8 questions, ONE question per message.
- Start easy (A1–A2); if the learner answers well, make the next question harder; if not, make it easier.
- Mix vocabulary, grammar, reading comprehension and a short free-writing question.
- Do not say whether each answer is right; just thank the learner and ask the next question.
- Greeting: explain in Portuguese, in two sentences, that this is a short test, then ask the first question.
- When you have enough evidence (at most 8 questions), END the test. Your final message MUST contain, on its own line, the marker
[[NIKA_LEVEL:XX]]
where XX is exactly one of A1, A2, B1, B2, C1, C2, followed by a short explanation in Brazilian Portuguese (2 or 3 sentences) of the level and what to study next.
- Never write the marker before the test has ended, and write it only once.`,
};

export type LessonContext = { title: string; description?: string | null };

function lessonPrompt(lesson: LessonContext | undefined): string {
  const title = lesson?.title?.trim() || "a aula";
  const description = lesson?.description?.trim();
  return `MODE: Lesson practice.
- The learner has just watched the video lesson "${title}".${description ? `\n- Lesson description: ${description}` : ""}
- Help them practise exactly this lesson's content: ask short questions that use its vocabulary and structures, and correct gently.
- Explain doubts in Portuguese; practise in English.
- Greeting: say hello, mention the lesson by its title and ask the first practice question.`;
}

/**
 * How each mode brings a due mistake back: a natural chance to use the right form (never a list of the mistakes).
 * The level test has none: it measures, it does not practise.
 */
const FOCUS_HOW: Record<Exclude<ChatModeId, "english-test">, string> = {
  portuguese:
    "invite the learner to say a short English sentence that needs one of them (for example, ask them to tell you something about themselves in English)",
  english: "steer the conversation, now and then, to a question whose natural answer needs one of them",
  game: "build an occasional round whose answer needs one of them",
  roleplay: "as the other person in the scene, say a line whose natural answer needs one of them",
  lesson: "when it fits the lesson, ask a practice question whose answer needs one of them",
};

/** The prompt part that carries a conversation's focus: the right forms to bring back, and how. */
function focusPrompt(mode: Exclude<ChatModeId, "english-test">, focus: readonly ConversationFocusItem[]): string {
  const items = focus.map((item) => `- ${JSON.stringify(item.right)} (the learner once said ${JSON.stringify(item.wrong)})`).join("\n");
  return `PRACTICE FOCUS: the learner is practising these corrected forms from earlier conversations:
${items}
- During the conversation, ${FOCUS_HOW[mode]}. Bring at most one back per reply, and only where it is natural.
- Let the learner try first: never give the right form before they answer.
- If they make the same mistake again, recast once: repeat their idea with the right form, naturally, without calling it a mistake, and move on.
- Never list these mistakes, never say you remember them, never quiz the learner on them directly.`;
}

export function systemPrompt(mode: ChatModeId, lesson?: LessonContext, focus: readonly ConversationFocusItem[] = []): string {
  const modePart = mode === "lesson" ? lessonPrompt(lesson) : MODE_PROMPTS[mode];
  const focusPart = mode !== "english-test" && focus.length > 0 ? `\n\n${focusPrompt(mode, focus)}` : "";
  return `${BASE}\n\n${modePart}${focusPart}`;
}

export type HistoryTurn = { role: "user" | "nika"; text: string };

export type BuiltChat = { messages: ChatMessage[]; maxTokens: number; promptVersion: string };

/**
 * System prompt + the last HISTORY_TURNS stored turns (user → user, nika → assistant) + the new
 * user text. Failed or empty turns are skipped. `userText` null means the greeting (`start`) turn.
 */
export function buildChatMessages(input: {
  mode: ChatModeId;
  lesson?: LessonContext;
  /** The conversation's due mistakes to bring back (its `focus`). */
  focus?: readonly ConversationFocusItem[];
  history: HistoryTurn[];
  userText: string | null;
}): BuiltChat {
  const turns = input.history
    .filter((turn) => turn.text.trim().length > 0)
    .slice(-HISTORY_TURNS)
    .map((turn): ChatMessage => ({ role: turn.role === "nika" ? "assistant" : "user", content: turn.text }));
  const userText = input.userText ?? START_TURN;
  return {
    messages: [{ role: "system", content: systemPrompt(input.mode, input.lesson, input.focus) }, ...turns, { role: "user", content: userText }],
    maxTokens: REPLY_MAX_TOKENS,
    promptVersion: PROMPT_VERSION,
  };
}

const MARKER = /\[\[\s*NIKA_LEVEL\s*:\s*([A-Za-z]\d)\s*\]\]/;
const MARKER_GLOBAL = /[ \t]*\[\[\s*NIKA_LEVEL\s*:\s*[^\]]*\]\][ \t]*\n?/gi;

/**
 * Finds the level marker `[[NIKA_LEVEL:B1]]` (case and inner whitespace tolerated) in Nika's reply.
 * Returns the CEFR level and the text without the marker line, or null when there is no valid marker.
 */
export function parseLevelMarker(text: string): { level: CefrLevel; cleanText: string } | null {
  const match = new RegExp(MARKER.source, "i").exec(text);
  if (!match) return null;
  const level = match[1]!.toUpperCase();
  if (!(CEFR_LEVELS as readonly string[]).includes(level)) return null;
  const cleanText = text
    .replace(MARKER_GLOBAL, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { level: level as CefrLevel, cleanText };
}

/** Holds back anything from "[[" until its "]]" so a NIKA_LEVEL marker never reaches the screen. */
export function markerHider() {
  let pending = "";
  return {
    push(piece: string): string {
      pending += piece;
      let out = "";
      for (;;) {
        const open = pending.indexOf("[[");
        if (open === -1) {
          // keep a trailing "[" (it may be the first half of "[[")
          const keep = pending.endsWith("[") ? 1 : 0;
          out += pending.slice(0, pending.length - keep);
          pending = pending.slice(pending.length - keep);
          return out;
        }
        out += pending.slice(0, open);
        pending = pending.slice(open);
        const close = pending.indexOf("]]");
        if (close === -1) return out;
        const candidate = pending.slice(0, close + 2);
        pending = pending.slice(close + 2);
        if (!parseLevelMarker(candidate)) out += candidate;
      }
    },
    flush(): string {
      const rest = parseLevelMarker(pending) ? "" : pending;
      pending = "";
      return rest;
    },
  };
}
