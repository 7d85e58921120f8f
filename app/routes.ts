import type { RouteConfig } from "@react-router/dev/routes";
import { remixRoutesOptionAdapter } from "@react-router/remix-routes-option-adapter";
import { flatRoutes } from "remix-flat-routes";

// Route modules grouped by area in `+` folders (remix-flat-routes hybrid routes): see decision 0010.
export default remixRoutesOptionAdapter((defineRoutes) =>
  flatRoutes("routes", defineRoutes, { ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"] }),
) satisfies RouteConfig;
