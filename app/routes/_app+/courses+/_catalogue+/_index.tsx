import type { RouteHandle } from "~/lib/access";
export const handle: RouteHandle = { access: "user" };

// `/courses` itself: the catalogue is the pathless parent (`_app.courses._catalogue`), so that
// `/courses/banner/edit` can open over it; this index adds nothing.
export default function CataloguePageIndex() {
  return null;
}
