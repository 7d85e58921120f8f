// Lembrete diário's public face: the hourly job (a row of app/cron-jobs.server.ts) and the signed links' pages.
export { confirmReminders, confirmTokenValid, sendDailyReminders, stopReminders, unsubscribeTokenUser } from "./reminders.server";
