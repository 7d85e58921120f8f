// The one migrate command, for every environment: `npm run db:migrate`.
// node-postgres over TCP to DATABASE_URL: locally the embedded PGlite's Postgres port; in production set it to Neon.
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { connect, loadEnv } from "./lib/node-db";

const { pool, db } = connect(loadEnv());
try {
  await migrate(db, { migrationsFolder: "migrations" });
  console.log("[db] migrations applied");
} finally {
  await pool.end();
}
