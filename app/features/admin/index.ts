// The admin console's public face: the server side of /admin (and /config/admin) and of the user pages, for their
// routes. Its screens are in ./ui; each feature's own admin pages live in that feature's admin/ folder.
export { consoleAction, loadConsolePage } from "./console.server";
export { handleUserAction, loadUserDetail, searchUsers } from "./users.server";
