// Data factories for the partner API tests: activities, timeslots and waiver questions, written through the real
// repositories so tests exercise the same rows the admin CLI creates.
import { randomUUID } from 'node:crypto';
import { addQuestion, createActivity, insertTimeslots, type Pool } from '@backbone/db';
import { checkNewQuestion, localToInstant, type Activity, type NewActivity, type NewWaiverQuestion, type WaiverQuestion } from '@backbone/domain';

export async function createTestActivity(pool: Pool, accountId: string, overrides: Partial<NewActivity> = {}): Promise<Activity> {
  return createActivity(pool, accountId, {
    name: `Activity ${randomUUID().slice(0, 8)}`,
    description: 'A test activity.',
    durationMinutes: 90,
    timeZone: 'Europe/Berlin',
    priceMinor: 4500,
    currency: 'EUR',
    maxParticipants: 10,
    ...overrides,
  });
}

export interface TestTimeslotInput {
  /** Local date and time in the activity's zone. */
  date: string;
  time: string;
  capacity?: number;
  booked?: number;
  status?: 'open' | 'closed';
  /** Overrides the start computed from date, time and zone (to make a slot that has already started). */
  startsAt?: Date;
}

export interface TestTimeslot {
  id: number;
  date: string;
  time: string;
  startsAt: Date;
  endsAt: Date;
  capacity: number;
}

/** Creates one timeslot of `activity`; throws when the local time does not exist on that date. */
export async function createTestTimeslot(pool: Pool, activity: Activity, input: TestTimeslotInput): Promise<TestTimeslot> {
  const startsAt = input.startsAt ?? localToInstant(input.date, input.time, activity.timeZone);
  if (!startsAt) throw new Error(`${input.date} ${input.time} does not exist in ${activity.timeZone}`);
  const endsAt = new Date(startsAt.getTime() + activity.durationMinutes * 60_000);
  const capacity = input.capacity ?? 10;
  await insertTimeslots(pool, activity.accountId, activity.id, [{ localDate: input.date, localTime: input.time, startsAt, endsAt, capacity }]);
  const { rows } = await pool.query<{ id: number }>(
    `UPDATE timeslots SET booked = $5, status = $6
      WHERE account_id = $1 AND activity_id = $2 AND local_date = $3 AND local_time = $4 RETURNING id`,
    [activity.accountId, activity.id, input.date, input.time, input.booked ?? 0, input.status ?? 'open'],
  );
  return { id: rows[0]!.id, date: input.date, time: input.time, startsAt, endsAt, capacity };
}

export async function createTestQuestion(pool: Pool, activity: Activity, input: Partial<NewWaiverQuestion> = {}): Promise<WaiverQuestion> {
  const question = { question: 'Any allergies?', type: 'text', required: false, options: [], perParticipant: false, ...input };
  checkNewQuestion(question);
  return addQuestion(pool, activity.accountId, activity.id, question);
}

/** A local date `days` after today in `timeZone` (always in the future for days >= 1). */
export function futureDate(days: number, timeZone = 'Europe/Berlin'): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
