// The pronunciation admin's URLs. The learners' list links admins to
// `LEVELS_ADMIN_PATH`; each level's row links to `editLevelPath(level)`. The level of a URL is read as
// the learners' pages read it (`parseLevel`: 1–100, anything else a 404).
import { PRONUNCIATION_PATH } from "../scores";

export { parseLevel, PRONUNCIATION_PATH } from "../scores";
export const LEVELS_ADMIN_PATH = `${PRONUNCIATION_PATH}/admin`;
export const editLevelPath = (level: number) => `${LEVELS_ADMIN_PATH}/${level}`;
/** Each level's element id on the list (a save comes back scrolled to it). */
export const levelAnchor = (level: number) => `nivel-${level}`;
