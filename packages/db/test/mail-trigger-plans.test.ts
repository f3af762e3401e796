// The mail outbox trigger (mail_for_booking_events) runs inside every booking's transaction, and PL/pgSQL keeps the
// plan of each of its statements for the life of the session. Planned while bookings and mail_messages were empty
// (statistics taken then, as the bench's VACUUM ANALYZE of a new database takes them), PostgreSQL read them whole,
// by a sequential scan or by a full scan of an index (a join order that cost nothing then), and every later booking
// on that connection read the whole table: the bench's bookings fell to a fifth of the ceiling as the tables grew.
// The trigger must read only the rows it needs, whatever the statistics were when its session first ran it.
import { expect, it } from 'vitest';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase } from '@backbone/testkit';
import { insertBookings } from './seed-bookings.js';

const db = useTestDatabase();

it('reads bookings and mail messages by index in a session that first ran it when both were empty', async () => {
  const { account } = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, account.id);
  const timeslot = await createTestTimeslot(db.pool, activity, { date: futureDate(5), time: '10:00', capacity: 1_000_000 });
  await db.pool.query('VACUUM ANALYZE bookings, mail_messages, mail_settings, partners, timeslots');

  const client = await db.pool.connect();
  const event = (type: string, reference: string, extra: object = {}) =>
    client.query(`INSERT INTO outbox_events (account_id, event_id, type, payload) VALUES ($1, gen_random_uuid(), $2, $3)`, [
      account.id,
      type,
      { Reference: reference, Status: 'confirmed', Changed: ['Date'], ...extra },
    ]);
  try {
    // First runs, each statement of the trigger planned now (the tables empty, as their statistics say).
    for (const type of ['booking.created', 'booking.updated', 'booking.cancelled']) await event(type, 'NONE-0001');

    await insertBookings(db.pool, account.id, timeslot.id, 'MANY-', 9_000, 'none');
    await db.pool.query(`UPDATE bookings SET channel = 'online', customer = customer || '{"Email":"ada@example.com"}' WHERE reference LIKE 'MANY-%'`);
    await db.pool.query(
      `INSERT INTO mail_messages (account_id, booking_id, kind, dedupe_key, to_address)
       SELECT account_id, id, 'confirmation', 'seed:' || id, 'ada@example.com' FROM bookings WHERE reference LIKE 'MANY-%'`,
    );

    await client.query('BEGIN');
    for (const type of ['booking.created', 'booking.updated', 'booking.cancelled']) await event(type, 'MANY-0007');
    // This transaction's reads: sequential scans, and the rows fetched through indexes.
    const { rows } = await client.query<{ relname: string; seq_scan: string; read: string }>(
      `SELECT relname, seq_scan, idx_tup_fetch AS read FROM pg_stat_xact_user_tables
        WHERE schemaname = current_schema() AND relname IN ('bookings', 'mail_messages') ORDER BY relname`,
    );
    const { rows: mail } = await client.query<{ kind: string; status: string }>(
      `SELECT m.kind, m.status FROM mail_messages m JOIN bookings b ON b.id = m.booking_id WHERE b.reference = 'MANY-0007' ORDER BY m.id`,
    );
    await client.query('ROLLBACK');

    // Three events of one booking among 9,000 with as many messages: a handful of rows each, never the tables.
    expect(rows.map((r) => [r.relname, Number(r.seq_scan)])).toEqual([
      ['bookings', 0],
      ['mail_messages', 0],
    ]);
    for (const row of rows) expect(Number(row.read), row.relname).toBeLessThan(40);
    // The trigger did its work on the way: a confirmation, the reminder its move withdrew, a change and a cancellation.
    expect(mail.map((m) => `${m.kind} ${m.status}`)).toEqual([
      'confirmation queued',
      'confirmation queued',
      'reminder cancelled',
      'change queued',
      'cancellation queued',
    ]);
  } finally {
    client.release();
  }
});
