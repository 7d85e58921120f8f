// Every route module declares who may use it, next to its loader/action:
//   export const handle: RouteHandle = { access: "user" };
// The route-contract test (tests/contract) reads the declarations from the built route manifest and
// checks each route as anonymous, blocked, learner and admin against them (see decision 0010).
//   public — anyone (landing pages, the 404 page, public media, error reports)
//   guest  — sign-in/sign-up pages: anonymous users; signed-in users are sent to / (blocked to /blocked)
//   user   — signed in and not blocked: anonymous → /signin (401 for endpoints), blocked → /blocked (403)
//   admin  — like user, and learners are sent to / from pages and get 403 from actions
//   dev    — development tools, absent (404) in production
export type Access = "public" | "guest" | "user" | "admin" | "dev";

export type RouteHandle = { access: Access };

export const ACCESS_LEVELS: readonly Access[] = ["public", "guest", "user", "admin", "dev"];
