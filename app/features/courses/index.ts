// Teacher FLIX's public face for other features and the app's composition: a learner's lesson channels, closed
// when their access ends.
export { closeLessonSockets } from "./lesson-live.server";
