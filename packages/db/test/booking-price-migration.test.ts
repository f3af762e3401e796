// The migration that records prices with bookings gives the bookings made before it their activity's price of that
// day, marked as such, without moving them in the partners' sync feed; a booking made after it takes the price of its
// activity at that instant, and keeps it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMigrationSchema } from './migration-schema.js';

const { pool, migrateUntil } = useMigrationSchema();

describe('1763720000000_booking-changes', () => {
  it("prices the bookings made before it at the activity's price, marked migration, and leaves their change position alone", async () => {
    await migrateUntil(1763709000000);
    const account = randomUUID();
    await pool.query(`INSERT INTO accounts (id, name) VALUES ($1, 'Legacy')`, [account]);
    const activity = (
      await pool.query<{ id: number }>(
        `INSERT INTO activities (account_id, activity_id, name, duration_minutes, time_zone, price_minor, currency, max_participants)
       VALUES ($1, $2, 'Kayak', 60, 'UTC', 2500, 'NOK', 6) RETURNING id`,
        [account, randomUUID()],
      )
    ).rows[0]!.id;
    const timeslot = (
      await pool.query<{ id: number }>(
        `INSERT INTO timeslots (account_id, activity_id, local_date, local_time, starts_at, ends_at, capacity)
       VALUES ($1, $2, '2030-01-01', '10:00', '2030-01-01T10:00Z', '2030-01-01T11:00Z', 6) RETURNING id`,
        [account, activity],
      )
    ).rows[0]!.id;
    const insert = (reference: string) =>
      pool.query(
        `INSERT INTO bookings (account_id, activity_id, timeslot_id, reference, participants, customer, channel, status, local_date)
         VALUES ($1, $2, $3, $4, 3, '{}', 'online', 'confirmed', '2030-01-01')`,
        [account, activity, timeslot, reference],
      );
    await insert('OLDBOOK1');
    const before = (await pool.query(`SELECT updated_at, change_xid::text FROM bookings WHERE reference = 'OLDBOOK1'`)).rows[0];

    await migrateUntil();
    const old = (
      await pool.query(
        `SELECT unit_price_minor::int, currency, price_source, total_minor::int, updated_at, change_xid::text FROM bookings WHERE reference = 'OLDBOOK1'`,
      )
    ).rows[0];
    expect(old).toEqual({
      unit_price_minor: 2500,
      currency: 'NOK',
      price_source: 'migration',
      total_minor: 7500,
      updated_at: before.updated_at,
      change_xid: before.change_xid,
    });

    await insert('NEWBOOK1');
    await pool.query(`UPDATE activities SET price_minor = 9900 WHERE id = $1`, [activity]);
    const fresh = (await pool.query(`SELECT unit_price_minor::int, currency, price_source, total_minor::int FROM bookings WHERE reference = 'NEWBOOK1'`))
      .rows[0];
    expect(fresh).toEqual({ unit_price_minor: 2500, currency: 'NOK', price_source: 'sale', total_minor: 7500 });
  });
});
