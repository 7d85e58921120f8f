/** The admin panel's element id: without JavaScript, edit links, redirects and form actions point at
 * `#painel-admin` so the browser scrolls to the section wherever the parent page renders its <Outlet />.
 * (Its own module so learner pages can link to it without loading the dialog code.) */
export const ADMIN_PANEL_ID = "painel-admin";
