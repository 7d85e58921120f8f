import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // The core tables, and each feature's own (app/features/<name>/tables.ts).
  schema: ["./app/server/schema.ts", "./app/features/*/tables.ts"],
  out: "./migrations",
});
