// Activities (the partner API's products). Partners only ever see activities that are active and offered in the
// shopfront; every query is bounded by the account id.
import { randomUUID } from 'node:crypto';
import type { Activity, NewActivity } from '@backbone/domain';
import type { Db } from './pool.js';

interface ActivityRow {
  id: number;
  activity_id: string;
  account_id: string;
  name: string;
  description: string;
  duration_minutes: number;
  time_zone: string;
  price_minor: number;
  currency: string;
  max_participants: number;
  active: boolean;
  in_shopfront: boolean;
  opening_time: string | null;
  closing_time: string | null;
}

const COLUMNS = `id, activity_id, account_id, name, description, duration_minutes, time_zone, price_minor, currency,
                 max_participants, active, in_shopfront,
                 to_char(opening_time, 'HH24:MI') AS opening_time, to_char(closing_time, 'HH24:MI') AS closing_time`;

function toActivity(row: ActivityRow): Activity {
  return {
    id: row.id,
    activityId: row.activity_id,
    accountId: row.account_id,
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    timeZone: row.time_zone,
    priceMinor: row.price_minor,
    currency: row.currency,
    maxParticipants: row.max_participants,
    active: row.active,
    inShopfront: row.in_shopfront,
    openingHours: row.opening_time && row.closing_time ? { from: row.opening_time, to: row.closing_time } : null,
  };
}

export async function createActivity(db: Db, accountId: string, input: NewActivity & { activityId?: string }): Promise<Activity> {
  const { rows } = await db.query<ActivityRow>(
    `INSERT INTO activities (activity_id, account_id, name, description, duration_minutes, time_zone, price_minor, currency,
                             max_participants, active, in_shopfront, opening_time, closing_time)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     RETURNING ${COLUMNS}`,
    [
      input.activityId ?? randomUUID(),
      accountId,
      input.name.trim(),
      input.description ?? '',
      input.durationMinutes,
      input.timeZone,
      input.priceMinor,
      input.currency,
      input.maxParticipants,
      input.active ?? true,
      input.inShopfront ?? true,
      input.openingHours?.from ?? null,
      input.openingHours?.to ?? null,
    ],
  );
  return toActivity(rows[0]!);
}

/**
 * The account's activities offered to partners, ordered by name ignoring case (code-point order, the same on every
 * database locale), then ID. `nameContains` filters by case-insensitive substring.
 */
export async function listOfferedActivities(db: Db, accountId: string, nameContains: string | null): Promise<Activity[]> {
  const { rows } = await db.query<ActivityRow>({
    name: 'activities-offered',
    text: `SELECT ${COLUMNS} FROM activities
            WHERE account_id = $1 AND active AND in_shopfront
              AND ($2::text IS NULL OR strpos(lower(name), lower($2::text)) > 0)
            ORDER BY lower(name) COLLATE "C", id`,
    values: [accountId, nameContains],
  });
  return rows.map(toActivity);
}

export async function findOfferedActivityById(db: Db, accountId: string, id: number): Promise<Activity | null> {
  const { rows } = await db.query<ActivityRow>(`SELECT ${COLUMNS} FROM activities WHERE account_id = $1 AND id = $2 AND active AND in_shopfront`, [
    accountId,
    id,
  ]);
  return rows[0] ? toActivity(rows[0]) : null;
}

/** Exact name, ignoring case; when several activities share it, the lowest ID. */
export async function findOfferedActivityByName(db: Db, accountId: string, name: string): Promise<Activity | null> {
  const { rows } = await db.query<ActivityRow>(
    `SELECT ${COLUMNS} FROM activities
      WHERE account_id = $1 AND lower(name) = lower($2) AND active AND in_shopfront
      ORDER BY id LIMIT 1`,
    [accountId, name],
  );
  return rows[0] ? toActivity(rows[0]) : null;
}

/** Any activity of the account by its UUID, whatever its state (for the operator's tools). */
export async function findActivity(db: Db, accountId: string, activityId: string): Promise<Activity | null> {
  const { rows } = await db.query<ActivityRow>(`SELECT ${COLUMNS} FROM activities WHERE account_id = $1 AND activity_id = $2`, [accountId, activityId]);
  return rows[0] ? toActivity(rows[0]) : null;
}

export async function listActivities(db: Db, accountId: string): Promise<Activity[]> {
  const { rows } = await db.query<ActivityRow>(`SELECT ${COLUMNS} FROM activities WHERE account_id = $1 ORDER BY id`, [accountId]);
  return rows.map(toActivity);
}

/** Sets the given fields of an activity of the account; null when there is no such activity. */
export async function updateActivity(
  db: Db,
  accountId: string,
  activityId: string,
  changes: Partial<Pick<Activity, 'name' | 'description' | 'durationMinutes' | 'priceMinor' | 'currency' | 'maxParticipants' | 'active' | 'inShopfront'>>,
): Promise<Activity | null> {
  const { rows } = await db.query<ActivityRow>(
    `UPDATE activities SET name = coalesce($3, name), description = coalesce($4, description), duration_minutes = coalesce($5, duration_minutes),
            price_minor = coalesce($6, price_minor), currency = coalesce($7, currency), max_participants = coalesce($8, max_participants),
            active = coalesce($9, active), in_shopfront = coalesce($10, in_shopfront)
      WHERE account_id = $1 AND activity_id = $2
     RETURNING ${COLUMNS}`,
    [
      accountId,
      activityId,
      changes.name ?? null,
      changes.description ?? null,
      changes.durationMinutes ?? null,
      changes.priceMinor ?? null,
      changes.currency ?? null,
      changes.maxParticipants ?? null,
      changes.active ?? null,
      changes.inShopfront ?? null,
    ],
  );
  return rows[0] ? toActivity(rows[0]) : null;
}
