// Hoje's public face: the home page's plan, points and streak, for the home route. The screen is ./ui/TodayPlan.
export { todayForHome } from "./plan.server";
