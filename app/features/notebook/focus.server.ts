// A conversation's focus, used right: the review of a learner's turn saw a due mistake that the conversation brought
// back (chat_conversations.focus) used correctly and unprompted. That is an FSRS "Good" of the entry — the tutor's
// conversation becomes part of its schedule — and a 'used_right' sighting that "Resumo da conversa" shows.
import { sql } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { rowsOf, type Database } from "~/server/db.server";
import { entryMemory, entryMemoryColumns, scheduleEntry } from "./practice.server";

export type UsedRight = { userId: string; conversationId: string; messageId: string | null; entryIds: string[]; now: Date };

/**
 * Notes the entries used right in one turn, in one transaction: each still the learner's, shown and not mastered,
 * and not already used right in this conversation (one "Good" per entry and conversation: using it again in the
 * next message is not a second review). Its previous memory is read (locked) first, then scheduled Good; a
 * flashcard word's entry keeps its card's schedule and gets the sighting only. Returns the entries noted.
 */
export async function noteUsedRight(db: Database, input: UsedRight): Promise<string[]> {
  const ids = [...new Set(input.entryIds)].filter((id) => isUuid(id));
  if (ids.length === 0) return [];
  return db.transaction(async (tx) => {
    const rows = rowsOf<Record<string, unknown> & { id: string; source: string }>(
      await tx.execute(sql`
        select e.id, e.source, ${entryMemoryColumns} from notebook_entries e
        where e.user_id = ${input.userId} and e.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
          and e.dismissed_at is null and e.state <> 'mastered'
          and not exists (select 1 from notebook_sightings s
            where s.entry_id = e.id and s.conversation_id = ${input.conversationId} and s.kind = 'used_right')
        for update of e`),
    );
    for (const row of rows) {
      if (row.source === "flashcards") continue;
      await scheduleEntry(tx, { userId: input.userId, entryId: row.id, previous: entryMemory(row), correct: true, now: input.now });
    }
    if (rows.length > 0) {
      await tx.execute(sql`
        insert into notebook_sightings (user_id, entry_id, conversation_id, message_id, kind)
        values ${sql.join(
          rows.map((row) => sql`(${input.userId}, ${row.id}, ${input.conversationId}, ${input.messageId}, 'used_right')`),
          sql`, `,
        )}`);
    }
    return rows.map((row) => row.id);
  });
}
