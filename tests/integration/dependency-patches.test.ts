// The rule for patched dependencies (patches/README.md): a patch must fail the install when it no longer applies,
// its package is pinned to the exact version the patch was made against, and the README says why it exists.
// A bare `patch-package` exits 0 when a patch does not apply (outside CI), so a version bump would drop it silently.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");
const packageJson = JSON.parse(read("package.json")) as { scripts: Record<string, string>; overrides?: Record<string, unknown> };
const lockfile = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version?: string }> };
const patchFiles = readdirSync(join(root, "patches")).filter((file) => file.endsWith(".patch"));

/** patch-package's file names: `name+1.2.3.patch` or `@scope+name+1.2.3.patch`. */
function patchedPackage(file: string): { name: string; version: string } {
  const parts = file.slice(0, -".patch".length).split("+");
  const version = parts.pop()!;
  if (parts.some((part) => part === "") || parts.length !== (parts[0]!.startsWith("@") ? 2 : 1))
    throw new Error(`${file}: a patch of a nested dependency; pin it and name it here too`);
  return { name: parts.join("/"), version };
}

describe("patched dependencies", () => {
  it("fail the install when a patch no longer applies", () => {
    expect(packageJson.scripts.postinstall).toBe("patch-package --error-on-fail");
    // CI must be set before the install, or patch-package's CI-only strictness never applies there.
    const ci = read(".ci/run");
    expect(ci.indexOf("export CI=true")).toBeGreaterThanOrEqual(0);
    expect(ci.indexOf("export CI=true")).toBeLessThan(ci.indexOf("npm ci"));
    expect(existsSync(join(root, "patches/README.md"))).toBe(true);
  });

  it.each(patchFiles)("%s: pinned exactly and explained in patches/README.md", (file) => {
    const { name, version } = patchedPackage(file);
    expect(packageJson.overrides?.[name], `package.json overrides["${name}"]`).toBe(version);
    const installed = Object.entries(lockfile.packages).filter(([path]) => path.endsWith(`node_modules/${name}`));
    expect(installed.length).toBeGreaterThan(0);
    for (const [path, entry] of installed) expect(entry.version, path).toBe(version);
    expect(read("patches/README.md")).toContain(file);
  });
});
