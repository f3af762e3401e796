// The migration that made Idempotency-Keys the caller's own keeps the partners' stored booking answers replayable
// for the partner that got them (at the concrete path), and drops what it cannot give a caller.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMigrationSchema } from './migration-schema.js';

const { pool, migrateUntil } = useMigrationSchema();

describe('1763709000000_idempotency-caller-scope', () => {
  it('gives stored partner answers their partner and concrete path, and drops the rest', async () => {
    await migrateUntil(1763708000000);
    const account = randomUUID();
    const partner = randomUUID();
    const activity = randomUUID();
    await pool.query(`INSERT INTO accounts (id, name) VALUES ($1, 'Legacy')`, [account]);
    await pool.query(`INSERT INTO partners (id, account_id, name) VALUES ($1, $2, 'OTA')`, [partner, account]);
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO activities (account_id, activity_id, name, duration_minutes, time_zone, price_minor, currency, max_participants)
       VALUES ($1, $2, 'Kayak', 60, 'UTC', 1000, 'EUR', 6) RETURNING id`,
      [account, activity],
    );
    const activityRow = rows[0]!.id;
    const timeslot = (
      await pool.query<{ id: number }>(
        `INSERT INTO timeslots (account_id, activity_id, local_date, local_time, starts_at, ends_at, capacity)
       VALUES ($1, $2, '2030-01-01', '10:00', '2030-01-01T10:00Z', '2030-01-01T11:00Z', 6) RETURNING id`,
        [account, activityRow],
      )
    ).rows[0]!.id;
    for (const reference of ['AAAABBBB', 'CCCCDDDD']) {
      await pool.query(
        `INSERT INTO bookings (account_id, activity_id, timeslot_id, reference, participants, customer, channel, partner_id, status, local_date)
         VALUES ($1, $2, $3, $4, 1, '{}', 'ota', $5, 'confirmed', '2030-01-01')`,
        [account, activityRow, timeslot, reference, partner],
      );
    }
    const legacy = async (operation: string, key: string, state: string, body: unknown) =>
      pool.query(`INSERT INTO idempotency_keys (account_id, operation, key, request_hash, state, response_body) VALUES ($1, $2, $3, 'h', $4, $5)`, [
        account,
        operation,
        key,
        state,
        body === null ? null : JSON.stringify(body),
      ]);
    await legacy('POST /api/v2/ota/partner/booking', 'create', 'done', { Reference: 'AAAABBBB' });
    await legacy('POST /api/v2/ota/partner/booking/:Reference/cancel', 'cancel', 'done', { Reference: 'CCCCDDDD' });
    await legacy('POST /api/v2/ota/partner/booking/:Reference/confirm', 'running', 'running', null);
    await legacy('POST /api/v2/operator/sales', 'sale', 'done', { Reference: 'AAAABBBB' });
    await legacy('POST /api/v2/usage/meters/batch', 'batch', 'done', { data: {} });

    await migrateUntil();
    const kept = await pool.query(`SELECT key, caller, operation FROM idempotency_keys ORDER BY key`);
    expect(kept.rows).toEqual([
      { key: 'cancel', caller: `partner:${partner}`, operation: 'POST /api/v2/ota/partner/booking/CCCCDDDD/cancel' },
      { key: 'create', caller: `partner:${partner}`, operation: 'POST /api/v2/ota/partner/booking' },
    ]);
  });
});
