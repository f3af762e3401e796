// The data generator for the million-bookings benchmarks (partner sync, the operator's list and CSV export): one
// account holding 1,000,000 bookings of every channel, made over a year, loaded by INSERT ... SELECT generate_series
// in chunks (each chunk its own transaction, so the sync feed sees as many distinct change transactions), then the
// timeslots' counters set to what the bookings hold and VACUUM (ANALYZE). The rows are what the APIs would have
// written: constraints and triggers stay on, references are in the API's alphabet and unique (a bijection of the row
// number), each booked counter equals its live participants. Every figure derives from the row number through
// PostgreSQL's hash functions, so each load is the same data. A complete load is kept and reused by the next run; an
// incomplete one is deleted and done again. No holds are left on hold: a kept hold would lapse and the sweepers of
// the other sections would release it, changing this account between runs (expired holds are there, as the sweeper
// leaves them).
//
// Standalone: DATABASE_URL=postgres://.../backbone_bench npx tsx bench/load-bookings.ts
import { pathToFileURL } from 'node:url';
import { createApiKey, createPool, foldBookingSales, migrate, salesFoldBefore, withTransaction, type Pool } from '@backbone/db';
import { REFERENCE_ALPHABET } from '@backbone/domain';

/** The account holding the million bookings; kept between runs like the usage summary account. */
export const MILLION_ACCOUNT_ID = '5b0a7c1e-10e7-4000-8000-00000000b1b1';
export const MILLION_BOOKINGS = 1_000_000;
const TIME_ZONE = 'Europe/Berlin';
/** Bookings are made from FIRST_DAY over CREATED_DAYS days, each for a timeslot 0 to LEAD_DAYS-1 days later. */
const FIRST_DAY = '2025-11-01';
const CREATED_DAYS = 365;
const LEAD_DAYS = 60;
const TIMES = ['09:00', '10:30', '12:00', '13:30', '15:00', '16:30'];
const CAPACITY = 120;
const CHUNK = 50_000;
const ACTIVITIES = [
  'Kayak tour',
  'Sunset cruise',
  'City walking tour',
  'Wine tasting',
  'Cooking class',
  'Bike tour',
  'Surf lesson',
  'Harbour boat trip',
  'Escape room',
  'Ghost tour',
  'Pottery workshop',
  'Stand-up paddle',
];
/** The OTAs, by share of the ota bookings (percent): most go through the first. */
export const MILLION_PARTNERS = [
  { name: 'GetYourGuide', share: 80, payment: 'GYG' },
  { name: 'Viator', share: 14, payment: 'BR-' },
  { name: 'Tiqets', share: 6, payment: 'TQ' },
] as const;
const FIRST_NAMES = [
  'Anna',
  'Lukas',
  'Marie',
  'Jonas',
  'Sophie',
  'Elias',
  'Emma',
  'Noah',
  'Mia',
  'Leon',
  'Hannah',
  'Paul',
  'Lena',
  'Finn',
  'Clara',
  'Ben',
  'Léa',
  'Hugo',
  'Chloé',
  'Louis',
  'Olivia',
  'James',
  'Amelia',
  'Oliver',
  'Sofía',
  'Mateo',
  'Giulia',
  'Lorenzo',
  'Zoë',
  'Björn',
  'Ingrid',
  'Mehmet',
  'Ayşe',
  'Priya',
  'Arjun',
  'Yuki',
  'Haruto',
  'Fatima',
  'Omar',
  'Wei',
];
const LAST_NAMES = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Hoffmann',
  'Schäfer',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
  'Neumann',
  'Martin',
  'Bernard',
  'Dubois',
  'Durand',
  'Lefèvre',
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'García',
  'Fernández',
  'Rossi',
  'Russo',
  'Bianchi',
  'de Vries',
  'Jansen',
  'Nowak',
  'Kowalski',
  'Yılmaz',
  'Kaya',
  'Sharma',
  'Patel',
  'Tanaka',
  'Nguyen',
  "O'Brien",
  'Andersson',
  'Nielsen',
  'Silva',
  'Santos',
];
const EMAIL_DOMAINS = ['gmail.com', 'web.de', 'gmx.de', 'outlook.com', 'yahoo.com', 'icloud.com', 'orange.fr', 't-online.de'];
const CANCELLATION_REASONS = ['Weather', 'Customer request', 'Illness', 'Travel plans changed', 'Duplicate booking'];

export interface MillionFixture {
  accountId: string;
  timeZone: string;
  /** Internal ids and public ids of the activities, in ACTIVITIES order. */
  activities: Array<{ id: number; activityId: string; name: string }>;
  partners: Array<{ id: string; name: string; keyId: string }>;
}

async function readFixture(pool: Pool): Promise<MillionFixture> {
  const { rows: activities } = await pool.query<{ id: number; activity_id: string; name: string }>(
    'SELECT id, activity_id, name FROM activities WHERE account_id = $1 ORDER BY id',
    [MILLION_ACCOUNT_ID],
  );
  const { rows: partners } = await pool.query<{ id: string; name: string; key_id: string }>(
    `SELECT p.id, p.name, k.id AS key_id FROM partners p JOIN api_keys k ON k.account_id = p.account_id AND k.partner_id = p.id AND k.name = 'integration'
      WHERE p.account_id = $1 ORDER BY p.created_at, p.name`,
    [MILLION_ACCOUNT_ID],
  );
  const byName = new Map(partners.map((p) => [p.name, p]));
  return {
    accountId: MILLION_ACCOUNT_ID,
    timeZone: TIME_ZONE,
    activities: activities.map((a) => ({ id: a.id, activityId: a.activity_id, name: a.name })),
    partners: MILLION_PARTNERS.map(({ name }) => {
      const p = byName.get(name);
      if (!p) throw new Error(`million account: partner ${name} is missing`);
      return { id: p.id, name: p.name, keyId: p.key_id };
    }),
  };
}

async function storedCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE account_id = $1', [MILLION_ACCOUNT_ID]);
  return rows[0]!.n;
}

async function deleteAccount(pool: Pool): Promise<void> {
  for (const table of ['bookings', 'booking_sales_rollup', 'booking_sales_daily', 'waiver_questions', 'timeslots', 'activities', 'api_keys', 'partners']) {
    await pool.query(`DELETE FROM ${table} WHERE account_id = $1`, [MILLION_ACCOUNT_ID]);
  }
  await pool.query('DELETE FROM accounts WHERE id = $1', [MILLION_ACCOUNT_ID]);
}

/** The account, its activities, a year and two months of timeslots, its partners each with a key. */
async function createCatalogue(pool: Pool): Promise<void> {
  await pool.query(`INSERT INTO accounts (id, name, time_zone) VALUES ($1, 'bench million bookings operator', $2)`, [MILLION_ACCOUNT_ID, TIME_ZONE]);
  await pool.query(
    `INSERT INTO activities (activity_id, account_id, name, description, duration_minutes, time_zone, price_minor, currency, max_participants)
     SELECT gen_random_uuid(), $1, name, name || ': an activity of the million-bookings operator.', 90, $2, 3900 + 500 * ord, 'EUR', 12
       FROM unnest($3::text[]) WITH ORDINALITY AS a(name, ord) ORDER BY ord`,
    [MILLION_ACCOUNT_ID, TIME_ZONE, ACTIVITIES],
  );
  await pool.query(
    `INSERT INTO timeslots (account_id, activity_id, local_date, local_time, starts_at, ends_at, capacity)
     SELECT $1, a.id, d::date, t::time, (d::date + t::time) AT TIME ZONE $2, ((d::date + t::time) AT TIME ZONE $2) + interval '90 minutes', $3
       FROM activities a, generate_series($4::date, $4::date + ($5::int - 1), interval '1 day') AS d, unnest($6::text[]) AS t
      WHERE a.account_id = $1`,
    [MILLION_ACCOUNT_ID, TIME_ZONE, CAPACITY, FIRST_DAY, CREATED_DAYS + LEAD_DAYS, TIMES],
  );
  for (const partner of MILLION_PARTNERS) {
    const { rows } = await pool.query<{ id: string }>('INSERT INTO partners (account_id, name) VALUES ($1, $2) RETURNING id', [
      MILLION_ACCOUNT_ID,
      partner.name,
    ]);
    // The key its bookings were made with; its secret is thrown away (each run makes its own keys).
    await createApiKey(pool, MILLION_ACCOUNT_ID, { name: 'integration', scopes: ['ota'], partnerId: rows[0]!.id });
  }
}

/** The reference of row n: its 40-bit scramble `ref` as 8 symbols of the API's alphabet, XXXX-XXXX. */
const symbol = (shift: number) => `substr('${REFERENCE_ALPHABET}', 1 + ((st.ref >> ${shift}) & 31)::int, 1)`;
const REFERENCE = [35, 30, 25, 20].map(symbol).join(' || ') + " || '-' || " + [15, 10, 5, 0].map(symbol).join(' || ');

/**
 * Bookings number `from` to `to` (1-based). Row n is made at FIRST_DAY + n/N of the year, so ids follow creation
 * time; h(k) is the row's k-th independent hash in 0..9999, each figure's share a range of it.
 */
async function insertBookings(pool: Pool, fixture: MillionFixture, from: number, to: number): Promise<void> {
  await pool.query(
    `WITH r AS (
       SELECT n, ($4::date + ($5::int * (n - 1)::float8 / $6) * interval '1 day') AT TIME ZONE $7 AS created_at,
              abs(hashint8extended(n, 1) % 10000) AS h1, abs(hashint8extended(n, 2) % 10000) AS h2,
              abs(hashint8extended(n, 3) % 10000) AS h3, abs(hashint8extended(n, 4) % 10000) AS h4,
              abs(hashint8extended(n, 5) % 10000) AS h5, abs(hashint8extended(n, 6) % 10000) AS h6,
              abs(hashint8extended(n, 7) % 10000) AS h7, abs(hashint8extended(n, 8) % 10000) AS h8,
              -- an odd multiple (2^40 / golden ratio) modulo 2^40, then an xorshift: both bijections, so the references
              -- are unique, and consecutive rows' references look unrelated, as random ones do
              ((n * 679477248735) % 1099511627776) # (((n * 679477248735) % 1099511627776) >> 17) AS ref
         FROM generate_series($2::bigint, $3::bigint) AS n
     ), shaped AS (
       SELECT r.*,
              CASE WHEN h1 < 6500 THEN 'ota' WHEN h1 < 9200 THEN 'online' ELSE 'pos' END AS channel,
              -- which partner (ota only), by the partners' shares
              CASE WHEN h2 < ($8::int[])[1] * 100 THEN 1 WHEN h2 < (($8::int[])[1] + ($8::int[])[2]) * 100 THEN 2 ELSE 3 END AS partner_ord,
              1 + h3 % array_length($9::bigint[], 1) AS activity_ord,
              (created_at AT TIME ZONE $7)::date + (h4 % $10)::int AS slot_date,
              ($11::text[])[1 + h5 % array_length($11::text[], 1)] AS slot_time,
              (ARRAY[1, 1, 2, 2, 2, 2, 2, 3, 4, 5])[1 + h6 % 10] AS participants,
              ($12::text[])[1 + h7 % array_length($12::text[], 1)] AS first_name,
              ($13::text[])[1 + h8 % array_length($13::text[], 1)] AS last_name
         FROM r
     ), stated AS (
       SELECT s.*,
              CASE WHEN channel = 'pos' THEN CASE WHEN h5 % 50 = 0 THEN 'cancelled' ELSE 'confirmed' END
                   WHEN h6 % 25 = 0 THEN 'expired' WHEN (h7 + h8) % 100 < 12 THEN 'cancelled' ELSE 'confirmed' END AS status
         FROM shaped s
     )
     INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, status, participants, customer, payment_reference,
                           answers, api_key_id, partner_id, expires_at, cancelled_at, cancellation_reason, created_at, updated_at)
     SELECT $1,
            ${REFERENCE},
            t.activity_id, t.id, st.channel, st.status, st.participants,
            jsonb_build_object(
              'FirstName', st.first_name, 'LastName', st.last_name,
              'Email', translate(lower(st.first_name || '.' || replace(replace(st.last_name, ' ', ''), '''', '')), 'éèëçñöüäşıøåíóá', 'eeecnouasioaioa') || (st.n % 997) || '@' || ($14::text[])[1 + st.h1 % array_length($14::text[], 1)],
              'Phone', CASE WHEN st.h2 % 5 = 0 THEN NULL ELSE '+49 1' || (50 + st.h3 % 30) || ' ' || lpad((st.n * 7919 % 10000000)::text, 7, '0') END),
            CASE st.channel
              WHEN 'ota' THEN ($15::text[])[st.partner_ord] || upper(substr(md5(st.n::text), 1, 9))
              WHEN 'online' THEN 'pi_3' || substr(md5('stripe' || st.n), 1, 23)
              ELSE CASE WHEN st.h4 % 5 < 2 THEN NULL ELSE 'POS-' || lpad(st.n::text, 8, '0') END
            END,
            '[]'::jsonb,
            CASE WHEN st.channel = 'ota' THEN ($16::uuid[])[st.partner_ord] END,
            CASE WHEN st.channel = 'ota' THEN ($17::uuid[])[st.partner_ord] END,
            CASE WHEN st.status = 'expired' THEN st.created_at + interval '15 minutes' END,
            CASE WHEN st.status = 'cancelled' THEN st.created_at + (1 + st.h5 % 72) * interval '1 hour' END,
            CASE WHEN st.status = 'cancelled' AND st.h6 % 3 > 0 THEN ($18::text[])[1 + st.h7 % array_length($18::text[], 1)] END,
            st.created_at,
            CASE st.status WHEN 'cancelled' THEN st.created_at + (1 + st.h5 % 72) * interval '1 hour'
                           WHEN 'expired' THEN st.created_at + interval '15 minutes' ELSE st.created_at END
       FROM stated st
       JOIN timeslots t ON t.account_id = $1 AND t.activity_id = ($9::bigint[])[st.activity_ord]
                       AND t.local_date = st.slot_date AND t.local_time = st.slot_time::time
      ORDER BY st.n`,
    [
      fixture.accountId,
      from,
      to,
      FIRST_DAY,
      CREATED_DAYS,
      MILLION_BOOKINGS,
      TIME_ZONE,
      MILLION_PARTNERS.map((p) => p.share),
      fixture.activities.map((a) => a.id),
      LEAD_DAYS,
      TIMES,
      FIRST_NAMES,
      LAST_NAMES,
      EMAIL_DOMAINS,
      MILLION_PARTNERS.map((p) => p.payment),
      fixture.partners.map((p) => p.keyId),
      fixture.partners.map((p) => p.id),
      CANCELLATION_REASONS,
    ],
  );
}

/** Each counter is what its live bookings hold (no hold is live here); capacity grows where a slot sold more. */
async function setCounters(pool: Pool): Promise<void> {
  await pool.query(
    `UPDATE timeslots t SET booked = s.booked, capacity = greatest(t.capacity, s.booked)
       FROM (SELECT timeslot_id, sum(participants)::int AS booked FROM bookings WHERE account_id = $1 AND status = 'confirmed' GROUP BY timeslot_id) s
      WHERE t.id = s.timeslot_id AND t.account_id = $1`,
    [MILLION_ACCOUNT_ID],
  );
}

/** The account's sales sums (per timeslot, then folded) equal to its bookings' own, counted again if they are not. */
async function ensureSalesSums(pool: Pool, log: (message: string) => void): Promise<void> {
  const { rows } = await pool.query<{ kept: number; counted: number }>(
    `SELECT (SELECT coalesce(sum(bookings), 0)::int FROM booking_sales_rollup WHERE account_id = $1)
          + (SELECT coalesce(sum(bookings), 0)::int FROM booking_sales_daily WHERE account_id = $1) AS kept,
            (SELECT count(*)::int FROM bookings WHERE account_id = $1 AND status IN ('confirmed', 'cancelled') AND NOT test) AS counted`,
    [MILLION_ACCOUNT_ID],
  );
  const { kept, counted } = rows[0]!;
  if (kept === counted) return;
  log(`  million account: its sales sums count ${kept.toLocaleString('en-US')} bookings, not ${counted.toLocaleString('en-US')}: counting them again`);
  await withTransaction(pool, async (client) => {
    // No booking of the account changes meanwhile (the bench alone writes here, and not yet).
    await client.query('DELETE FROM booking_sales_rollup WHERE account_id = $1', [MILLION_ACCOUNT_ID]);
    await client.query('DELETE FROM booking_sales_daily WHERE account_id = $1', [MILLION_ACCOUNT_ID]);
    await client.query(
      `INSERT INTO booking_sales_rollup (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
       SELECT account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, status = 'cancelled', count(*), sum(participants), sum(total_minor)
         FROM bookings
        WHERE account_id = $1 AND status IN ('confirmed', 'cancelled') AND NOT test
        GROUP BY account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, status = 'cancelled'`,
      [MILLION_ACCOUNT_ID],
    );
  });
}

/**
 * The sales sums of the days before yesterday folded into day rows, as the booking worker's fold does within minutes
 * of the writes (apps/booking-worker sales-fold.ts): the report then reads what it reads in production.
 */
async function foldPastSales(pool: Pool, log: (message: string) => void): Promise<void> {
  let total = 0;
  for (let folded = -1; folded !== 0; total += folded) folded = await foldBookingSales(pool, salesFoldBefore(new Date()), 50_000);
  if (total > 0) {
    await pool.query('VACUUM (ANALYZE) booking_sales_rollup');
    await pool.query('VACUUM (ANALYZE) booking_sales_daily');
    log(`  million account: ${total.toLocaleString('en-US')} per-timeslot sales sums folded into day rows`);
  }
}

/** Loads the account unless a complete load is there; returns the fixture and whether it was written now. */
export async function ensureBookingsLoaded(pool: Pool, log: (message: string) => void): Promise<{ fixture: MillionFixture; loaded: boolean; seconds: number }> {
  const done = await storedCount(pool);
  if (done === MILLION_BOOKINGS) {
    log(`million account already holds ${MILLION_BOOKINGS.toLocaleString('en-US')} bookings: skipping the load`);
    // Runs before the bench kept the sales sums of this account truncated them: counted again from the bookings
    // when they do not add up. A load kept from before the sales fold existed is folded now.
    await ensureSalesSums(pool, log);
    await foldPastSales(pool, log);
    return { fixture: await readFixture(pool), loaded: false, seconds: 0 };
  }
  const { rowCount } = await pool.query('SELECT 1 FROM accounts WHERE id = $1', [MILLION_ACCOUNT_ID]);
  if (rowCount) {
    log(`million account holds ${done.toLocaleString('en-US')} bookings, not ${MILLION_BOOKINGS.toLocaleString('en-US')}: deleting it and loading again`);
    await deleteAccount(pool);
  }
  const started = Date.now();
  await createCatalogue(pool);
  const fixture = await readFixture(pool);
  for (let from = 1; from <= MILLION_BOOKINGS; from += CHUNK) {
    await insertBookings(pool, fixture, from, Math.min(MILLION_BOOKINGS, from + CHUNK - 1));
    log(`  million account: ${Math.min(MILLION_BOOKINGS, from + CHUNK - 1).toLocaleString('en-US')} bookings (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  const stored = await storedCount(pool);
  // Every row finds its timeslot by construction; a miss would mean the generator and the catalogue disagree.
  if (stored !== MILLION_BOOKINGS) throw new Error(`million account: ${stored} bookings stored, ${MILLION_BOOKINGS} generated`);
  await setCounters(pool);
  await foldPastSales(pool, log);
  for (const table of ['bookings', 'timeslots', 'activities', 'partners', 'api_keys']) await pool.query(`VACUUM (ANALYZE) ${table}`);
  const seconds = (Date.now() - started) / 1000;
  log(`million account loaded in ${Math.round(seconds)} s`);
  return { fixture, loaded: true, seconds };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  await migrate({ databaseUrl });
  const pool = createPool({ connectionString: databaseUrl, max: 2, applicationName: 'bench-load-bookings' });
  await ensureBookingsLoaded(pool, (message) => console.log(message));
  await pool.end();
}
