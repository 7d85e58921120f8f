// "Hoje" on the home page (decision 0022): today's plan of 3–4 items, the points against the daily goal and
// the streak — read in ONE statement (the learner's habit columns, today's activities, the due cards and corrections, the next lesson,
// the weakest pronunciation word) and turned into items by the rules below. A disabled feature's part is not even
// queried, and its item is not offered.
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { CHAT_MODE_INFO, type ChatModeId } from "~/features/conversation";
import { readyForReview, visibleCard } from "~/features/flashcards";
import { correctionsPractisedOn, dueCorrectionsCount } from "~/features/notebook";
import { saoPauloDay, streakToday, type StreakView } from "~/server/activity.server";
import { keptWithSession, type SessionUser } from "~/server/auth.server";
import { jsonValue, rowsOf, type DbOrTx } from "~/server/db.server";
import type { Flags } from "~/server/flags.server";
import type { ActivityKind } from "~/server/schema";

export type PlanItem = {
  key: "mistakes" | "review" | "lesson" | "pronunciation" | "chat" | "flashcards";
  title: string;
  detail: string;
  to: string;
  /** An activity of this item's kind finished today. */
  done: boolean;
};

export type TodayData = {
  items: PlanItem[];
  points: number;
  goal: number;
  streak: StreakView;
  /** The goal is offered on the home page once the learner has an activity and never chose one. */
  offerGoal: boolean;
};

const LEVEL_COUNT = 100;
/** A word of a recent attempt at or below this accuracy is weak (the "good" tier starts above it, decision 0014). */
const WEAK_WORD_SCORE = 70;
/** How many of the learner's most recently practised levels are searched for the weakest word. */
const RECENT_LEVELS = 20;

type PlanRow = {
  daily_goal: number;
  goal_chosen: boolean;
  current_streak: number;
  longest_streak: number;
  streak_freezes: number;
  last_active_day: string | null;
  english_level: string | null;
  points: number;
  kinds: ActivityKind[] | string | null;
  has_activity: boolean;
  due_count: number | null;
  mistakes_count: number | null;
  mistakes_practised: boolean | null;
  next_lesson: unknown;
  pronunciation: unknown;
};

/** The plan's one statement; `today` is the São Paulo day (YYYY-MM-DD), `now` decides which cards are due. */
async function readPlanRow(db: DbOrTx, userId: string, today: string, now: Date, flags: Flags): Promise<PlanRow | undefined> {
  const none = sql`null`;
  const dueCount = flags.feature_flashcards
    ? sql`(select count(*)::int from flashcard_memory m join flashcard_cards k on k.id = m.card_id
        where m.user_id = ${userId} and ${readyForReview(now)} and ${visibleCard})`
    : none;
  // "Meu caderno"'s corrections are asked in Revisão, a flashcards game.
  const mistakesCount = flags.feature_flashcards ? dueCorrectionsCount(userId, now, { pronunciation: flags.feature_pronunciation }) : none;
  // …and the item stays, ticked, once today's Revisão has practised them.
  const mistakesPractised = flags.feature_flashcards ? correctionsPractisedOn(userId, today) : none;
  // The first lesson not completed in course order, starting at the module of the last lesson completed (then the
  // earlier modules' gaps); with no lesson completed, the course's first lesson.
  const nextLesson = flags.feature_teacher_flix
    ? sql`(select json_build_object('id', l.id, 'title', l.title, 'module', m.title, 'started', last.id is not null)
        from lessons l join modules m on m.id = l.module_id
        left join (
          select m2.order_index, m2.id from user_lesson_progress p
          join lessons l2 on l2.id = p.lesson_id join modules m2 on m2.id = l2.module_id
          where p.user_id = ${userId} and p.completed
          order by p.completed_at desc nulls last, p.updated_at desc limit 1) last on true
        where m.available = 'yes' and not exists (
          select 1 from user_lesson_progress p where p.user_id = ${userId} and p.lesson_id = l.id and p.completed)
        order by coalesce((m.order_index, m.id) < (last.order_index, last.id), false), m.order_index, m.id, l.order_index, l.id
        limit 1)`
    : none;
  // The pronunciation item in one scan of the learner's scored attempts: the latest attempt of each level gives the
  // next level (after the highest practised) and, among the most recently practised levels, the weakest word.
  const pronunciation = flags.feature_pronunciation
    ? sql`(with latest as (
          select distinct on (a.level) a.level, a.words, a.created_at from pronunciation_attempts a
          where a.user_id = ${userId} and a.status = 'scored'
          order by a.level, a.created_at desc)
        select json_build_object(
          'nextLevel', least(${LEVEL_COUNT}, coalesce((select max(level) from latest), 0) + 1),
          'weak', (select json_build_object('level', r.level, 'word', w.word)
            from (select level, words, created_at from latest order by created_at desc limit ${RECENT_LEVELS}) r
            cross join lateral jsonb_to_recordset(r.words) as w(word text, "accuracyScore" real, "errorType" text)
            where w."errorType" <> 'Insertion' and w."accuracyScore" <= ${WEAK_WORD_SCORE}
            order by w."accuracyScore", r.created_at desc limit 1)))`
    : none;
  const result = await db.execute(sql`
    with today as (
      select coalesce(sum(points), 0)::int as points, coalesce(array_agg(distinct kind), '{}') as kinds
      from activities where user_id = ${userId} and day = ${today}::date
    )
    select u.daily_goal, u.daily_goal_chosen_at is not null as goal_chosen, u.current_streak, u.longest_streak,
      u.streak_freezes, u.last_active_day::text as last_active_day, u.english_level, t.points, t.kinds,
      (t.points > 0 or exists (select 1 from activities a where a.user_id = u.id)) as has_activity,
      ${dueCount} as due_count, ${mistakesCount} as mistakes_count, ${mistakesPractised} as mistakes_practised, ${nextLesson} as next_lesson, ${pronunciation} as pronunciation
    from users u cross join today t
    where u.id = ${userId}`);
  return rowsOf<PlanRow>(result)[0];
}

/** node-postgres returns text[] as an array; other drivers as its literal `{a,b}`. */
function kindsOf(value: PlanRow["kinds"]): Set<string> {
  if (Array.isArray(value)) return new Set(value);
  return new Set(
    String(value ?? "")
      .replace(/^\{|\}$/g, "")
      .split(",")
      .filter(Boolean),
  );
}

/**
 * The chat mode that fits the level test's result: no result → the test itself; A1–A2 → Português; B1–B2 → a
 * topic in English; C1–C2 → Role Play. When that mode is off, the next one of the same list that is on.
 */
export function chatModesFor(englishLevel: string | null): ChatModeId[] {
  if (!englishLevel) return ["english-test", "portuguese", "english"];
  if (/^A[12]$/.test(englishLevel)) return ["portuguese", "english", "game"];
  if (/^B[12]$/.test(englishLevel)) return ["english", "roleplay", "game"];
  return ["roleplay", "english", "game"];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The plan's rules (decision 0022), from the statement's row. At most 4 items; at least 3 when the features allow. */
export function planItems(row: PlanRow, flags: Flags): PlanItem[] {
  const done = kindsOf(row.kinds);
  const items: PlanItem[] = [];
  const due = Number(row.due_count ?? 0);
  const mistakes = Number(row.mistakes_count ?? 0);
  // Due corrections and due cards are one Revisão: one item, named after the mistakes when there are any.
  if (flags.feature_flashcards && (mistakes > 0 || row.mistakes_practised)) {
    items.push({
      key: "mistakes",
      title: mistakes > 0 ? `Revisar seus erros (${mistakes})` : "Revisar seus erros",
      detail: due > 0 ? `Na Revisão, com ${plural(due, "cartão", "cartões")}` : "Na Revisão",
      to: "/flashcard-v2",
      done: Boolean(row.mistakes_practised) && done.has("review_game"),
    });
  } else if (flags.feature_flashcards && due > 0) {
    items.push({
      key: "review",
      title: "Revisão",
      detail: `${plural(due, "cartão para revisar", "cartões para revisar")}`,
      to: "/flashcard-v2",
      done: done.has("review_game"),
    });
  }
  const lesson = jsonValue<{ id: string; title: string; module: string; started: boolean } | null>(row.next_lesson);
  if (flags.feature_teacher_flix && lesson) {
    items.push({
      key: "lesson",
      title: lesson.started ? "Próxima aula" : "Comece o curso",
      detail: `${lesson.title} · ${lesson.module}`,
      to: `/courses/lessons/${lesson.id}`,
      done: done.has("lesson_completed"),
    });
  }
  if (flags.feature_pronunciation) {
    const found = jsonValue<{ nextLevel: number; weak: { level: number; word: string } | null } | null>(row.pronunciation);
    const weak = found?.weak ?? null;
    const level = weak?.level ?? found?.nextLevel ?? 1;
    items.push({
      key: "pronunciation",
      title: `Pronúncia · nível ${level}`,
      detail: weak ? `Treine a palavra “${weak.word}”` : "Seu próximo nível",
      to: `/pronunciation-game/${level}`,
      done: done.has("pronunciation_attempt"),
    });
  }
  const mode = chatModesFor(row.english_level).find((id) => flags[CHAT_MODE_INFO[id].flag!]);
  if (mode) {
    const info = CHAT_MODE_INFO[mode];
    const isTest = mode === "english-test";
    items.push({
      key: "chat",
      title: isTest ? "Descubra seu nível" : `Converse com a Nika · ${info.title}`,
      detail: isTest ? info.title : row.english_level ? `Para o seu nível (${row.english_level})` : "Pratique a conversa",
      to: info.path!,
      done: done.has(isTest ? "level_test" : "chat_exchange"),
    });
  }
  // Without due cards the plan may be short: a flashcard game fills it up to 3.
  if (items.length < 3 && flags.feature_flashcards && due === 0 && mistakes === 0) {
    items.push({
      key: "flashcards",
      title: "Flashcards",
      detail: "Um jogo de vocabulário",
      to: "/flashcard-v2",
      done: done.has("flashcard_game"),
    });
  }
  return items.slice(0, 4);
}

/** Everything "Hoje" shows, in one statement. */
export async function loadToday(db: DbOrTx, userId: string, flags: Flags, now: Date, today: string): Promise<TodayData> {
  const row = await readPlanRow(db, userId, today, now, flags);
  if (!row) throw new Error("loadToday: the signed-in learner has no row");
  const goal = Number(row.daily_goal);
  return {
    items: planItems(row, flags),
    points: Number(row.points),
    goal,
    streak: streakToday(
      {
        currentStreak: Number(row.current_streak),
        longestStreak: Number(row.longest_streak),
        streakFreezes: Number(row.streak_freezes),
        lastActiveDay: row.last_active_day,
      },
      today,
    ),
    offerGoal: Boolean(row.has_activity) && !row.goal_chosen,
  };
}

/**
 * "Hoje" for the home page: kept with this isolate's copy of the learner's session while the São Paulo day and the
 * flags are the same, so a reload within SESSION_STALE_MS runs no statement; whatever the learner does drops it
 * (keptWithSession, decision 0022).
 */
export function todayForHome(context: AppLoadContext, user: SessionUser, flags: Flags, now = new Date()): Promise<TodayData> {
  const day = saoPauloDay(now);
  return keptWithSession(context, user, "today", [day, flags], () => loadToday(context.db, user.id, flags, now, day));
}
