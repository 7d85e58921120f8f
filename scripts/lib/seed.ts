// Development seed: runs once on a new database (never in production). Two accounts, the flags the
// local journey needs, three modules with lessons and an active courses banner.
import { eq, sql } from "drizzle-orm";
import { passwordCredentials } from "../../app/features/auth/tables";
import { lessons, modules, siteBanners } from "../../app/features/courses/tables";
import { creditPeriod } from "../../app/server/credits.server";
import type { Database } from "../../app/server/db.server";
import { hashPassword } from "../../app/server/password";
import { appConfig, creditLedger, userRoles, users } from "../../app/server/schema";

export const DEV_ACCOUNTS = {
  admin: { email: "admin@nika.local", password: "NikaAdmin123", name: "Admin Nika" },
  learner: { email: "aluno@nika.local", password: "NikaAluno123", name: "Aluno Nika" },
  /** Shows the /blocked screen. */
  blocked: { email: "bloqueado@nika.local", password: "NikaBloqueado123", name: "Conta Bloqueada" },
} as const;

type SeedModule = {
  title: string;
  description: string;
  /** Modules are available unless they say "no". */
  available?: "no";
  lessons: { title: string; minutes: number; video: string }[];
};

/** Inserted in this order: the array position is the module's orderIndex (0, 1, 2). */
const SEED_MODULES: SeedModule[] = [
  {
    title: "Boas-vindas ao Teacher FLIX",
    description: "Conheça a plataforma, a Nika e como estudar inglês todos os dias.",
    lessons: [
      { title: "Como funciona o Teacher FLIX", minutes: 4, video: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      { title: "Montando sua rotina de estudos", minutes: 6, video: "https://vimeo.com/76979871" },
    ],
  },
  {
    title: "Primeiros Passos no Inglês",
    description: "Cumprimentos, apresentações e as frases que você usa todo dia.",
    lessons: [
      { title: "Greetings: Hello, Hi e Good morning", minutes: 8, video: "https://www.youtube.com/watch?v=aqz-KE-bpKQ" },
      { title: "Apresentando-se: My name is...", minutes: 7, video: "https://www.youtube.com/watch?v=ScMzIvxBSi4" },
      { title: "Números de 1 a 20", minutes: 9, video: "https://www.youtube.com/watch?v=LXb3EKWsInQ" },
    ],
  },
  {
    title: "Inglês para Viagens",
    description: "Aeroporto, hotel e restaurante: o inglês que salva a sua viagem.",
    available: "no",
    lessons: [
      { title: "No aeroporto", minutes: 10, video: "https://www.youtube.com/watch?v=jNQXAC9IVRw" },
      { title: "Fazendo check-in no hotel", minutes: 8, video: "https://www.youtube.com/watch?v=9bZkp7q19f0" },
    ],
  },
];

export type SeedOptions = { allowance: number; now?: Date; emailConfirmationRequired?: boolean };

/** Seeds once; returns false when the database already has the development accounts. */
export async function seedDevelopment(db: Database, options: SeedOptions): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEV_ACCOUNTS.admin.email));
  if (existing) return false;
  const now = options.now ?? new Date();

  await db.transaction(async (tx) => {
    for (const [kind, account] of Object.entries(DEV_ACCOUNTS)) {
      const [user] = await tx
        .insert(users)
        .values({
          name: account.name,
          email: account.email,
          phoneNumber: "+55 11 90000-0000",
          emailConfirmedAt: now,
          monthlyCredits: options.allowance,
          creditsPeriod: creditPeriod(now),
          accountType: kind === "blocked" ? "blocked" : "free",
        })
        .returning({ id: users.id });
      await tx.insert(passwordCredentials).values({ userId: user!.id, passwordHash: await hashPassword(account.password) });
      await tx.insert(creditLedger).values({
        userId: user!.id,
        delta: options.allowance,
        balanceAfter: options.allowance,
        reason: "seed",
      });
      if (kind === "admin") await tx.insert(userRoles).values({ userId: user!.id, role: "admin" });
    }

    for (const [orderIndex, seedModule] of SEED_MODULES.entries()) {
      const [created] = await tx
        .insert(modules)
        .values({
          title: seedModule.title,
          description: seedModule.description,
          orderIndex,
          available: seedModule.available ?? "yes",
        })
        .returning({ id: modules.id });
      await tx.insert(lessons).values(
        seedModule.lessons.map((lesson, index) => ({
          moduleId: created!.id,
          title: lesson.title,
          description: `${lesson.title}: aula ${index + 1} do módulo ${orderIndex}.`,
          videoUrl: lesson.video,
          durationSeconds: lesson.minutes * 60,
          orderIndex: index + 1,
        })),
      );
    }

    await tx.insert(siteBanners).values({
      section: "courses",
      title: "Teacher FLIX",
      subtitle: "Aulas curtas para aprender inglês de verdade || No seu ritmo, em qualquer lugar",
      backgroundGradient: "linear-gradient(135deg, #312e81 0%, #6d28d9 55%, #be185d 100%)",
      isActive: true,
    });

    if (options.emailConfirmationRequired !== undefined) {
      await tx
        .update(appConfig)
        .set({ configValue: options.emailConfirmationRequired, updatedAt: sql`now()` })
        .where(eq(appConfig.configKey, "email_confirmation_required"));
    }
  });
  return true;
}
