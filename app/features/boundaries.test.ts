// Features depend on ~/components, ~/lib and ~/server, and on another feature only through that
// feature's public index.ts (`~/features/<name>`), never on its files; and no two features depend on each
// other, however far round (what both need is a feature of its own, as chat and live share conversation).
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
/** Imports that run: static ones not marked `type`, and dynamic `import()`. A type import leaves nothing behind. */
const VALUE_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

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

  it("the features' imports of one another form no loop", () => {
    const uses = new Map<string, Set<string>>();
    for (const file of sourceFiles(FEATURES)) {
      const feature = relative(FEATURES, file).split("/")[0]!;
      if (!uses.has(feature)) uses.set(feature, new Set());
      for (const [, staticTarget, dynamicTarget] of readFileSync(file, "utf8").matchAll(VALUE_IMPORT)) {
        const other = /^~\/features\/([^/]+)/.exec(staticTarget ?? dynamicTarget!)?.[1];
        if (other && other !== feature) uses.get(feature)!.add(other);
      }
    }
    const loops: string[] = [];
    const walk = (feature: string, path: string[]) => {
      for (const next of uses.get(feature) ?? []) {
        if (next === path[0]) loops.push([...path, next].join(" → "));
        else if (!path.includes(next) && next > path[0]!) walk(next, [...path, next]);
      }
    };
    for (const feature of [...uses.keys()].sort()) walk(feature, [feature]);
    expect(loops).toEqual([]);
  });

  it("every feature folder has the skeleton's public index.ts, and its components in ui/ or admin/", () => {
    const offences: string[] = [];
    for (const feature of readdirSync(FEATURES, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      const top = readdirSync(join(FEATURES, feature.name));
      if (!top.includes("index.ts")) offences.push(`${feature.name}: no index.ts`);
      for (const name of top.filter((file) => /\.tsx$|^use-.*\.ts$/.test(file)))
        offences.push(`${feature.name}/${name}: a component outside ui/`);
    }
    expect(offences).toEqual([]);
  });

  it("app/server, app/lib and app/components import no feature, by alias or by a relative path", () => {
    const offences: string[] = [];
    for (const layer of ["server", "lib", "components"]) {
      for (const file of sourceFiles(join(process.cwd(), "app", layer))) {
        for (const [, target] of readFileSync(file, "utf8").matchAll(IMPORT)) {
          const resolved = target!.startsWith(".")
            ? relative(join(process.cwd(), "app"), join(file, "..", target!))
            : target!.replace(/^~\//, "");
          if (/^(features|routes)(\/|$)/.test(resolved)) offences.push(`${relative(process.cwd(), file)} → ${target}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });

  it("credit_ledger is written by app/server/credits.server.ts alone (features compose its spends and refunds)", () => {
    const WRITE =
      /insert\s+into\s+credit_ledger|update\s+credit_ledger|delete\s+from\s+credit_ledger|\.(?:insert|update|delete)\(\s*creditLedger\b/i;
    const APP = join(process.cwd(), "app");
    const writers = sourceFiles(APP)
      .filter((file) => !file.endsWith(".test.ts") && WRITE.test(readFileSync(file, "utf8")))
      .map((file) => relative(APP, file));
    expect(writers).toEqual(["server/credits.server.ts"]);
  });
});
