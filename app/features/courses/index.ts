// Teacher FLIX's public face for other features and the app's composition: the modules and lessons tables (a
// conversation about a lesson points at it), and a learner's lesson channels, closed when their access ends.
export { lessons, modules } from "./tables";
export { closeLessonSockets } from "./lesson-live.server";
