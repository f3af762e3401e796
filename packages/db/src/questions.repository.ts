// Waiver questions of an activity, kept in display order (position, then id).
import type { NewWaiverQuestion, WaiverQuestion } from '@backbone/domain';
import type { QuestionType } from '@backbone/contracts';
import type { Db } from './pool.js';

interface QuestionRow {
  id: number;
  question: string;
  type: QuestionType;
  required: boolean;
  options: string[];
  per_participant: boolean;
}

function toQuestion(row: QuestionRow): WaiverQuestion {
  return { id: row.id, question: row.question, type: row.type, required: row.required, options: row.options, perParticipant: row.per_participant };
}

/** Appends a question after the activity's last one. */
export async function addQuestion(
  db: Db,
  accountId: string,
  activityInternalId: number,
  input: NewWaiverQuestion & { type: QuestionType },
): Promise<WaiverQuestion> {
  const { rows } = await db.query<QuestionRow>(
    `INSERT INTO waiver_questions (account_id, activity_id, position, question, type, required, options, per_participant)
     SELECT $1, $2, coalesce(max(position), 0) + 1, $3, $4, $5, $6, $7
       FROM waiver_questions WHERE account_id = $1 AND activity_id = $2
     RETURNING id, question, type, required, options, per_participant`,
    [accountId, activityInternalId, input.question.trim(), input.type, input.required, JSON.stringify(input.options), input.perParticipant],
  );
  return toQuestion(rows[0]!);
}

/** The questions of an activity offered to partners, in display order; null when the account offers no such activity. */
export async function listOfferedActivityQuestions(db: Db, accountId: string, activityId: string): Promise<WaiverQuestion[] | null> {
  const { rows } = await db.query<{ id: number | null } & Omit<QuestionRow, 'id'>>({
    name: 'questions-offered',
    text: `SELECT q.id, q.question, q.type, q.required, q.options, q.per_participant
             FROM activities a
             LEFT JOIN waiver_questions q ON q.account_id = a.account_id AND q.activity_id = a.id
            WHERE a.account_id = $1 AND a.activity_id = $2 AND a.active AND a.in_shopfront
            ORDER BY q.position, q.id`,
    values: [accountId, activityId],
  });
  if (rows.length === 0) return null;
  return rows.filter((r): r is QuestionRow => r.id !== null).map(toQuestion);
}

/** Every question of an activity of the account, offered or not, in display order. */
export async function listActivityQuestions(db: Db, accountId: string, activityInternalId: number): Promise<WaiverQuestion[]> {
  const { rows } = await db.query<QuestionRow>(
    `SELECT id, question, type, required, options, per_participant FROM waiver_questions
      WHERE account_id = $1 AND activity_id = $2 ORDER BY position, id`,
    [accountId, activityInternalId],
  );
  return rows.map(toQuestion);
}
