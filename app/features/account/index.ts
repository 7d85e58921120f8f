// Minha conta's public face: the server side of its pages (profile, password, avatar, daily goal and reminder),
// for its routes. Its screens are in ./ui, imported by the routes directly (client code must not reach a .server file).
export { loadAccount, updateProfileField } from "./account.server";
export { saveAvatar } from "./avatars.server";
export { dailyGoalSchema, refuseSubmission, reminderSchema, saveHabitChoice } from "./daily-goal.server";
export { changePassword } from "./password-change.server";
