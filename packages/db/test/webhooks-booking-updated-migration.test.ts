// Endpoints that subscribed to every event type there was get booking.updated when it arrives; endpoints that chose
// some types keep their choice.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMigrationSchema } from './migration-schema.js';

const { pool, migrateUntil } = useMigrationSchema();

describe('1763720500000_webhooks-booking-updated', () => {
  it('adds booking.updated to endpoints subscribed to every earlier type, and only to them', async () => {
    await migrateUntil(1763720000000);
    const account = randomUUID();
    const partner = randomUUID();
    await pool.query(`INSERT INTO accounts (id, name) VALUES ($1, 'Webhooks')`, [account]);
    await pool.query(`INSERT INTO partners (id, account_id, name) VALUES ($1, $2, 'OTA')`, [partner, account]);
    const endpoint = (url: string, types: string[]) =>
      pool.query(`INSERT INTO webhook_endpoints (account_id, partner_id, url, event_types, secret) VALUES ($1, $2, $3, $4, 'whsec_x') RETURNING id`, [
        account,
        partner,
        url,
        types,
      ]);
    await endpoint('https://all.example.com/', ['booking.created', 'booking.confirmed', 'booking.cancelled', 'booking.expired']);
    await endpoint('https://some.example.com/', ['booking.created', 'booking.cancelled']);
    await migrateUntil();
    const { rows } = await pool.query(`SELECT url, event_types FROM webhook_endpoints ORDER BY url`);
    expect(rows).toEqual([
      { url: 'https://all.example.com/', event_types: ['booking.created', 'booking.confirmed', 'booking.cancelled', 'booking.expired', 'booking.updated'] },
      { url: 'https://some.example.com/', event_types: ['booking.created', 'booking.cancelled'] },
    ]);
  });
});
