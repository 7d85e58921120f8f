// Progresso's public face: the page's data, for its route. The screen is ./ui/ProgressPage.
export { loadProgressPage } from "./progress.server";
