// The service worker's precache list for a page: what React Router loads for it, from its browser manifest.
import { describe, expect, it } from "vitest";
import { pageEntries, routesMatching, type BrowserManifest } from "./vite-sw";

type Route = BrowserManifest["routes"][string];
const route = (id: string, over: Partial<Route>): Route => ({
  id,
  module: `/assets/${id.replace(/\W+/g, "-")}.js`,
  imports: [],
  css: [],
  ...over,
});

function manifest(routes: Route[]): BrowserManifest {
  return {
    version: "abc123",
    entry: { module: "/assets/entry.client.js", imports: ["/assets/framework.js"] },
    routes: Object.fromEntries(routes.map((each) => [each.id, each])),
  };
}

const BASE = [
  route("root", { path: "", imports: ["/assets/framework.js"] }),
  route("routes/$", { parentId: "root", path: "*" }),
  route("routes/_app+/_layout", { parentId: "root", imports: ["/assets/app-shell.js"] }),
  route("routes/_app+/_labs+/flashcard-v2._index", { parentId: "routes/_app+/_layout", path: "flashcard-v2", index: true }),
  route("routes/_app+/_labs+/flashcard-v2.$gameId", { parentId: "routes/_app+/_layout", path: "flashcard-v2/:gameId" }),
];
const PLAYER = route("routes/_public+/flashcard-v2.offline", {
  parentId: "root",
  path: "flashcard-v2/offline",
  imports: ["/assets/game-screens.js", "/assets/framework.js"],
  css: ["/assets/player.css"],
});

describe("routesMatching", () => {
  it("finds the static route and its parents, not the dynamic route or the splat that would also match", () => {
    expect(routesMatching(manifest([...BASE, PLAYER]), "/flashcard-v2/offline").map((each) => each.id)).toEqual([
      "root",
      "routes/_public+/flashcard-v2.offline",
    ]);
    expect(routesMatching(manifest(BASE), "/flashcard-v2/offline")).toEqual([]);
  });

  it("takes an index route with its layouts", () => {
    expect(routesMatching(manifest(BASE), "/flashcard-v2").map((each) => each.id)).toEqual([
      "root",
      "routes/_app+/_layout",
      "routes/_app+/_labs+/flashcard-v2._index",
    ]);
  });
});

describe("pageEntries", () => {
  it("lists the page (revisioned by the manifest's version) and every script and stylesheet it loads, once", () => {
    expect(pageEntries(manifest([...BASE, PLAYER]), "/flashcard-v2/offline", ["/assets/tailwind.css"])).toEqual([
      { url: "/flashcard-v2/offline", revision: "abc123" },
      { url: "/assets/entry.client.js", revision: null },
      { url: "/assets/framework.js", revision: null },
      { url: "/assets/game-screens.js", revision: null },
      { url: "/assets/player.css", revision: null },
      { url: "/assets/root.js", revision: null },
      { url: "/assets/routes-_public-flashcard-v2-offline.js", revision: null },
      { url: "/assets/tailwind.css", revision: null },
    ]);
  });

  it("lists nothing when no route serves the page", () => {
    expect(pageEntries(manifest(BASE), "/flashcard-v2/offline", ["/assets/tailwind.css"])).toEqual([]);
  });
});
