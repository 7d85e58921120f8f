// The one migrate command, for every environment: `npm run db:migrate`.
// Locally it reaches the embedded PGlite through the bridge; in production set DATABASE_URL to Neon.
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import { connect, loadEnv } from "./lib/node-db";

const { pool, db } = connect(loadEnv());
try {
  await migrate(db, { migrationsFolder: "migrations" });
  console.log("[db] migrations applied");
} finally {
  await pool.end();
}
