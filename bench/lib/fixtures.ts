// The bench's own data: a clean slate at every run (except the accounts loaded once and kept: the 10M-entry summary
// account and the million-bookings account), then an operator with a realistic catalogue, timeslots and questions,
// written with plain SQL.
import { randomUUID } from 'node:crypto';
import type { Scope } from '@backbone/contracts';
import { createApiKey, type Pool } from '@backbone/db';
import { MILLION_ACCOUNT_ID } from '../load-bookings.js';

/** The account whose 10,000,000 entries the summaries read; kept between runs. */
export const SUMMARY_ACCOUNT_ID = '5b0a7c1e-10e7-4000-8000-00000000b0b0';
const KEPT_ACCOUNTS = [SUMMARY_ACCOUNT_ID, MILLION_ACCOUNT_ID];
const KEPT_TABLES = new Set(['accounts', 'usage_entries', 'usage_rollups_hourly', 'usage_rollups_daily', 'usage_fold_state', 'pgmigrations']);
/**
 * Tables holding the million-bookings account's rows beside the other accounts', as production tables hold every
 * account's: only the other accounts' rows go, children before parents. The sales sums are among them: truncated with
 * the rest, the kept account's report read nothing (runs measured it at 1-3 ms).
 */
const SHARED_TABLES = ['bookings', 'booking_sales_rollup', 'booking_sales_daily', 'waiver_questions', 'timeslots', 'activities', 'api_keys', 'partners'];

/** Removes everything earlier runs left, except the kept accounts' data. */
export async function resetBenchData(pool: Pool): Promise<void> {
  const { rows: others } = await pool.query<{ id: string }>('SELECT id FROM accounts WHERE id <> ALL($1::uuid[])', [KEPT_ACCOUNTS]);
  // By the ids of the accounts to remove, not by "not kept": that finds their rows through the account indexes
  // instead of reading the kept accounts' millions of rows.
  const ids = others.map((r) => r.id);
  if (ids.length > 0) {
    for (const table of ['usage_entries', 'usage_rollups_hourly', 'usage_rollups_daily']) {
      await pool.query(`DELETE FROM ${table} WHERE account_id = ANY($1::uuid[])`, [ids]);
    }
  }
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const truncate = tables.map((t) => t.table_name).filter((name) => !KEPT_TABLES.has(name) && !SHARED_TABLES.includes(name));
  // No CASCADE: if a table outside this list referenced one of them, fail loudly rather than wipe kept data.
  if (truncate.length > 0) await pool.query(`TRUNCATE ${truncate.map((t) => `"${t}"`).join(', ')}`);
  if (ids.length > 0) {
    for (const table of SHARED_TABLES) await pool.query(`DELETE FROM ${table} WHERE account_id = ANY($1::uuid[])`, [ids]);
    await pool.query('DELETE FROM accounts WHERE id = ANY($1::uuid[])', [ids]);
  }
}

export async function createBenchAccount(pool: Pool, name: string, timeZone: string, id: string = randomUUID()): Promise<string> {
  await pool.query(`INSERT INTO accounts (id, name, time_zone) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [id, name, timeZone]);
  return id;
}

export async function createKey(pool: Pool, accountId: string, scopes: Scope[]): Promise<string> {
  return (await createApiKey(pool, accountId, { name: `bench ${scopes.join(',')}`, scopes })).secret;
}

export interface Slot {
  date: string;
  time: string;
}

export interface PartnerFixture {
  accountId: string;
  key: string;
  timeZone: string;
  productIds: number[];
  productNames: string[];
  /** Activity with 8 slots a day over 60 days and 6 questions: dates, timeslots, questions. */
  catalogActivity: string;
  catalogDate: string;
  datesRange: { start: string; end: string };
  /** Activity with 16 slots a day over 90 days, capacity 1,000,000 each: uncontended bookings. */
  bookingActivity: string;
  bookingSlots: Slot[];
  /** Activity holding the hot timeslots (capacity 1,000,000) and the small ones for the oversell check. */
  hotActivity: string;
  hotSlots: { ours: Slot; ceiling: Slot; smallOurs: Slot; smallCeiling: Slot };
  smallCapacity: number;
}

const TIME_ZONE = 'Europe/Berlin';
const NAMES = [
  'Kayak tour',
  'Sunset cruise',
  'City walking tour',
  'Wine tasting',
  'Cooking class',
  'Bike tour',
  'Surf lesson',
  'Climbing intro',
  'Paragliding tandem',
  'Food market walk',
  'Museum after dark',
  'Harbour boat trip',
  'Segway ride',
  'Horse riding',
  'Yoga on the beach',
  'Street art tour',
  'Brewery visit',
  'Canyoning',
  'Snorkelling trip',
  'Photo walk',
  'Escape room',
  'Ghost tour',
  'Fishing trip',
  'Pottery workshop',
  'Stand-up paddle',
];

export async function insertActivity(pool: Pool, accountId: string, name: string): Promise<{ id: number; activityId: string }> {
  const activityId = randomUUID();
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO activities (activity_id, account_id, name, description, duration_minutes, time_zone, price_minor, currency, max_participants)
     VALUES ($1, $2, $3, $4, 90, $5, 4500, 'EUR', 20) RETURNING id`,
    [activityId, accountId, name, `${name}: a bench activity with a description of ordinary length for the product list.`, TIME_ZONE],
  );
  return { id: rows[0]!.id, activityId };
}

/** Creates timeslots on `days` local dates from `firstDate`, at the given local times. */
export async function insertTimeslots(
  pool: Pool,
  accountId: string,
  activity: number,
  firstDate: string,
  days: number,
  times: string[],
  capacity: number,
): Promise<void> {
  await pool.query(
    `INSERT INTO timeslots (account_id, activity_id, local_date, local_time, starts_at, ends_at, capacity)
     SELECT $1, $2, d::date, t::time, (d::date + t::time) AT TIME ZONE $5, ((d::date + t::time) AT TIME ZONE $5) + interval '90 minutes', $6
       FROM generate_series($3::date, $3::date + ($4::int - 1), interval '1 day') AS d, unnest($7::text[]) AS t`,
    [accountId, activity, firstDate, days, TIME_ZONE, capacity, times],
  );
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function hours(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${String(from + i).padStart(2, '0')}:00`);
}

export async function createPartnerFixture(pool: Pool, smallCapacity: number): Promise<PartnerFixture> {
  const accountId = await createBenchAccount(pool, 'bench partner operator', TIME_ZONE);
  const key = await createKey(pool, accountId, ['ota']);
  const products: Array<{ id: number; activityId: string; name: string }> = [];
  for (const name of NAMES) products.push({ ...(await insertActivity(pool, accountId, name)), name });
  // Starts the day after tomorrow in the operator's zone, so no slot has started whatever the hour.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const first = addDays(today, 2);

  const catalog = products[0]!;
  await insertTimeslots(pool, accountId, catalog.id, first, 60, ['09:00', '10:30', '12:00', '13:30', '15:00', '16:30', '18:00', '19:30'], 12);
  const questions: Array<[string, string, boolean, string[]]> = [
    ['Full name of each participant', 'text', true, []],
    ['Date of birth', 'date', true, []],
    ['Swimming ability', 'select', true, ['None', 'Basic', 'Confident']],
    ['Dietary requirements', 'multiselect', false, ['Vegetarian', 'Vegan', 'Gluten-free']],
    ['Upload your signed waiver', 'file', true, []],
    ['I accept the terms', 'checkbox', true, []],
  ];
  for (const [position, [question, type, required, options]] of questions.entries()) {
    await pool.query(
      `INSERT INTO waiver_questions (account_id, activity_id, position, question, type, required, options, per_participant)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
      [accountId, catalog.id, position, question, type, required, JSON.stringify(options), position === 0],
    );
  }

  const booking = products[1]!;
  const bookingTimes = hours(6, 16);
  await insertTimeslots(pool, accountId, booking.id, first, 90, bookingTimes, 1_000_000);
  const bookingSlots: Slot[] = [];
  for (let day = 0; day < 90; day++) for (const time of bookingTimes) bookingSlots.push({ date: addDays(first, day), time });
  // Interleave days so that consecutive requests hit different rows (and pages).
  bookingSlots.sort((a, b) => (a.time === b.time ? a.date.localeCompare(b.date) : a.time.localeCompare(b.time)));

  const hot = products[2]!;
  await insertTimeslots(pool, accountId, hot.id, first, 1, ['10:00', '11:00'], 1_000_000);
  await insertTimeslots(pool, accountId, hot.id, first, 1, ['14:00', '15:00'], smallCapacity);

  return {
    accountId,
    key,
    timeZone: TIME_ZONE,
    productIds: products.map((p) => p.id),
    productNames: products.map((p) => p.name),
    catalogActivity: catalog.activityId,
    catalogDate: addDays(first, 3),
    datesRange: { start: first, end: addDays(first, 29) },
    bookingActivity: booking.activityId,
    bookingSlots,
    hotActivity: hot.activityId,
    hotSlots: {
      ours: { date: first, time: '10:00' },
      ceiling: { date: first, time: '11:00' },
      smallOurs: { date: first, time: '14:00' },
      smallCeiling: { date: first, time: '15:00' },
    },
    smallCapacity,
  };
}

export interface SlotTally {
  capacity: number;
  booked: number;
  bookings: number;
  participants: number;
}

/** The stored counter of a slot next to what its booking rows add up to. */
export async function tallySlot(pool: Pool, accountId: string, activityId: string, slot: Slot): Promise<SlotTally> {
  const { rows } = await pool.query<{ capacity: number; booked: number; bookings: string; participants: string | null }>(
    `SELECT t.capacity, t.booked, count(b.id) AS bookings, sum(b.participants) AS participants
       FROM timeslots t
       JOIN activities a ON a.account_id = t.account_id AND a.id = t.activity_id
       LEFT JOIN bookings b ON b.timeslot_id = t.id
      WHERE t.account_id = $1 AND a.activity_id = $2 AND t.local_date = $3 AND t.local_time = $4
      GROUP BY t.id`,
    [accountId, activityId, slot.date, slot.time],
  );
  const row = rows[0];
  if (!row) throw new Error(`no timeslot ${slot.date} ${slot.time}`);
  return { capacity: row.capacity, booked: row.booked, bookings: Number(row.bookings), participants: Number(row.participants ?? 0) };
}
