// Vitest global setup: one migrated PGlite data directory, made once per run and handed to every test
// file. Starting PGlite from it skips initdb and the migrations (most of a fresh database's start-up),
// and every file still gets its own database with the committed migrations applied.
import { mkdirSync, writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";

const TEMPLATE = ".cache/test-db-template.tar";

export default async function setup(project: TestProject) {
  const client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder: "migrations" });
  const dump = await client.dumpDataDir("none");
  await client.close();
  mkdirSync(".cache", { recursive: true });
  writeFileSync(TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  project.provide("dbTemplate", TEMPLATE);
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: string;
  }
}
