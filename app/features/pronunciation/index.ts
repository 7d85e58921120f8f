// The pronunciation game's public face for other features and the app's jobs: its spends the sweep gives back, and
// its scoring of a recording for Revisão's pronunciation cards (the recording's rules, the scorer, its verdict and
// the refusals' words) — which spends nothing: the flashcard game's one credit covers it.
export {
  abandonedAttempts,
  assessRecording,
  checkRecording,
  MAX_ATTEMPT_UPLOAD_BYTES,
  pronunciationScorer,
  type AssessmentOutcome,
  type Recording,
} from "./attempts.server";
export { REFUSAL_STATUS as PRONUNCIATION_REFUSAL_STATUS, REFUSALS as PRONUNCIATION_REFUSALS, type PronunciationRefusal } from "./texts";
