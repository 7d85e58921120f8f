// `npm run db:seed`: the development seed, once per database. Refuses to run in production.
import { connect, loadEnv } from "./lib/node-db";
import { DEV_ACCOUNTS, seedDevelopment } from "./lib/seed";

const env = loadEnv();
if (env.APP_ENV === "production") {
  console.error("[seed] refusing to seed a production database");
  process.exit(1);
}
const { pool, db } = connect(env);
try {
  const seeded = await seedDevelopment(db, {
    allowance: Number(env.MONTHLY_CREDITS ?? 50),
    // Locally the sign-up journey goes through the mailbox; production keeps the spec default (off).
    emailConfirmationRequired: env.SEED_EMAIL_CONFIRMATION !== "off",
  });
  console.log(seeded ? "[seed] development data created" : "[seed] already seeded");
  // The planner's statistics: production's Postgres keeps them with autovacuum, which the embedded database does not
  // run. Without them it plans every table as if it were small and unknown (e.g. the "Hoje" plan's due count scanned
  // every flashcard for a learner with no card memory).
  await pool.query("analyze");
  console.log(`[seed] admin: ${DEV_ACCOUNTS.admin.email} / ${DEV_ACCOUNTS.admin.password}`);
  console.log(`[seed] aluno: ${DEV_ACCOUNTS.learner.email} / ${DEV_ACCOUNTS.learner.password}`);
  console.log(`[seed] bloqueado: ${DEV_ACCOUNTS.blocked.email} / ${DEV_ACCOUNTS.blocked.password}`);
} finally {
  await pool.end();
}
