// The lock holds none of Remix v2 (end of life) and no turbo-stream 2.x (CVE-2026-34077, the version
// @remix-run/react 2.x pinned). React Router's own dev tooling depends on one package of the new Remix line
// (@remix-run/node-fetch-server, 0.x, build time only): allowed while a @react-router/* package requires it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

type LockPackage = { version?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8")) as { packages: Record<string, LockPackage> };

/** Every installed copy: its name (the path's last `node_modules/…` part), path and version. */
const installed = Object.entries(lock.packages)
  .filter(([path]) => path.includes("node_modules/"))
  .map(([path, entry]) => ({
    name: path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length),
    path,
    version: entry.version ?? "",
  }));

/** The packages whose dependencies name `name`. */
const dependentsOf = (name: string) =>
  installed.filter(({ path }) => {
    const entry = lock.packages[path]!;
    return name in (entry.dependencies ?? {}) || name in (entry.optionalDependencies ?? {});
  });

describe("package-lock.json", () => {
  it("holds no turbo-stream 2.x", () => {
    expect(installed.filter(({ name, version }) => name === "turbo-stream" && version.startsWith("2."))).toEqual([]);
  });

  it("holds no Remix v2 package: every @remix-run/* left is a 0.x one that only React Router's packages require", () => {
    const remix = installed.filter(({ name }) => name.startsWith("@remix-run/"));
    for (const { name, version } of remix) {
      expect(version, name).toMatch(/^0\./);
      const dependents = dependentsOf(name).map((each) => each.name);
      expect(dependents.length, name).toBeGreaterThan(0);
      expect(
        dependents.filter((dependent) => !dependent.startsWith("@react-router/")),
        name,
      ).toEqual([]);
    }
  });

  it("pins react-router and every @react-router/* package to one exact version", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<string, Record<string, string>>;
    const declared = { ...manifest.dependencies, ...manifest.devDependencies };
    const routerPackages = Object.entries(declared).filter(([name]) => name === "react-router" || name.startsWith("@react-router/"));
    expect(routerPackages.length).toBeGreaterThanOrEqual(3);
    const versions = new Set(routerPackages.map(([, version]) => version));
    expect([...versions]).toHaveLength(1);
    expect([...versions][0]).toMatch(/^7\.\d+\.\d+$/);
  });
});
