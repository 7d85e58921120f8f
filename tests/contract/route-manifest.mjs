#!/usr/bin/env node
// Prints the built route manifest as JSON: every route of build/server with its URL pattern, whether it
// has a loader, an action and a component, and the access level its module declares (`handle.access`).
// Run with the worker's export conditions, as the route-contract test does:
//   node --conditions=workerd --conditions=worker tests/contract/route-manifest.mjs
import { register } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

// The build carries the Durable Object classes for the worker entry; their base class is workerd's own module,
// which Node lacks. Only the route modules are read here, so an empty base class stands in for it.
const stubCloudflare = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("cloudflare:")) return { url: "data:text/javascript,export class DurableObject {}", shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(stubCloudflare)}`);

const build = await import(pathToFileURL(resolve("build/server/index.js")).href);
const routes = Object.values(build.routes);
const byId = new Map(routes.map((route) => [route.id, route]));

/** The URL pattern of a route: its ancestors' paths joined (pathless layouts add nothing). */
function fullPath(route) {
  const parts = [];
  for (let current = route; current; current = current.parentId ? byId.get(current.parentId) : undefined) {
    if (current.path) parts.unshift(current.path);
  }
  return "/" + parts.join("/");
}

const manifest = routes
  .filter((route) => route.id !== "root")
  .map((route) => ({
    id: route.id,
    path: fullPath(route),
    /** Addressable by a URL of its own (pathless layouts are reached only through their children). */
    addressable: Boolean(route.path || route.index),
    hasLoader: typeof route.module.loader === "function",
    hasAction: typeof route.module.action === "function",
    hasComponent: typeof route.module.default === "function",
    access: route.module.handle?.access ?? null,
  }))
  .sort((a, b) => a.path.localeCompare(b.path) || a.id.localeCompare(b.id));

process.stdout.write(JSON.stringify(manifest, null, 2));
