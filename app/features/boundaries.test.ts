// Features depend on ~/components, ~/lib and ~/server, and on another feature only through that
// feature's public index.ts (`~/features/<name>`), never on its files.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const FEATURES = join(process.cwd(), "app/features");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

describe("feature boundaries", () => {
  it("no feature imports another feature's files (only its index) or climbs out with ../..", () => {
    const offences: string[] = [];
    for (const file of sourceFiles(FEATURES)) {
      const path = relative(FEATURES, file);
      const feature = path.split("/")[0];
      for (const [, target] of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const other = /^~\/features\/([^/]+)(\/.*)?$/.exec(target!);
        if (other && other[1] !== feature && other[2]) offences.push(`${path} → ${target}`);
        if (target!.startsWith("../") && relative(FEATURES, join(file, "..", target!)).split("/")[0] !== feature) {
          if (!target!.endsWith("?raw")) offences.push(`${path} → ${target}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });
});
