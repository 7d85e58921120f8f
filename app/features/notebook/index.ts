// "Meu caderno"'s public face: reviewing a learner's turn for mistakes (the chat calls it after each reply), and
// the server side of /caderno for its route. The page is ./ui/NotebookPage.
export { notePronunciationAttempt, PRONUNCIATION_MISTAKE_BELOW, reviewLearnerTurn, type LearnerTurn } from "./review.server";
export { loadNotebookPage, notebookAction } from "./page.server";
export { notebookColumns, readNotebookAnalytics, type NotebookAnalytics } from "./admin/analytics.server";
export { notebookEntries, notebookSightings } from "./tables";
export {
  correctionReady,
  correctionsPractisedOn,
  dueCorrectionsCount,
  entryMemory,
  entryMemoryColumns,
  entryMemoryJson,
  focusEntries,
  noteMissedCard,
  pronunciationReady,
  scheduleEntry,
  type MissedCard,
} from "./practice.server";
