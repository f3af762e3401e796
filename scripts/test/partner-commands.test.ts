// The admin CLI's partner commands and the demo seed, run against a real database: what they create is what the
// partner API serves, keys work until revoked, bookings of every channel are listed with payment references.
import { describe, expect, it } from 'vitest';
import { createBookingStore, findActiveApiKey } from '@backbone/db';
import { reserveBooking } from '@backbone/domain';
import { freePort, futureDate, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { partnerCommands } from '../admin/partner.commands.js';
import { DEMO_ACCOUNT_ID, seedDemoOperator } from '../admin/demo-seed.js';

const db = useTestDatabase();
const redis = useTestRedis();
// Commands return plain JSON-able objects; tests read their members freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = async (command: string, options: Record<string, string | boolean>): Promise<any> => {
  const result = await partnerCommands[command]!.run(options, { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix });
  // Every command's answer must survive the trip through JSON that the CLI prints.
  return JSON.parse(JSON.stringify(result));
};

describe('admin CLI: partner commands', () => {
  it('lists every account, oldest first, with the ID the other commands take as --account', async () => {
    const before = await run('list-accounts', {});
    const first = await run('create-account', { name: 'First Listed', 'time-zone': 'Europe/Oslo' });
    const second = await run('create-account', { name: 'Second Listed' });
    expect(await run('list-accounts', {})).toEqual([...before, first, second]);
    expect(second).toEqual({ ID: expect.any(String), Name: 'Second Listed', TimeZone: 'UTC', CreatedAt: expect.any(String) });
  });

  it('creates a sandbox key with --test, for the partner named: a test key of the same reseller', async () => {
    const account = await run('create-account', { name: 'Cli Sandbox' });
    const live = await run('create-key', { account: account.ID, name: 'Acme', scopes: 'ota' });
    const test = await run('create-key', { account: account.ID, name: 'Acme sandbox', scopes: 'ota', partner: 'Acme', test: true });
    expect(test).toMatchObject({ Test: true, PartnerID: live.PartnerID });
    expect(await findActiveApiKey(db.pool, test.Secret)).toMatchObject({ test: true, partnerId: live.PartnerID });
    expect((await run('list-keys', { account: account.ID })).map((k: { Test: boolean }) => k.Test)).toEqual([false, true]);
  });

  it('creates an account, keys (secret shown once, stored hashed), lists and revokes them', async () => {
    const account = await run('create-account', { name: 'Cli Outdoor', 'time-zone': 'America/New_York' });
    expect(account).toEqual({ ID: expect.any(String), Name: 'Cli Outdoor', TimeZone: 'America/New_York', CreatedAt: expect.any(String) });
    const key = await run('create-key', { account: account.ID, name: 'partner', scopes: 'ota, usage:read' });
    expect(key).toEqual({
      ID: expect.any(String),
      AccountID: account.ID,
      Name: 'partner',
      Prefix: key.Secret.slice(0, 10),
      Scopes: ['ota', 'usage:read'],
      PartnerID: expect.any(String),
      Secret: expect.stringMatching(/^bk_/),
      CreatedAt: expect.any(String),
      Test: false,
      Note: 'Store the secret now: it is not shown again.',
    });
    expect(await findActiveApiKey(db.pool, key.Secret)).toMatchObject({ accountId: account.ID, test: false });
    const keys = await run('list-keys', { account: account.ID });
    expect(keys).toEqual([
      {
        ID: key.ID,
        Name: 'partner',
        Prefix: key.Prefix,
        Scopes: ['ota', 'usage:read'],
        CreatedAt: key.CreatedAt,
        RevokedAt: null,
        Test: false,
        RateLimit: null,
      },
    ]);
    expect(JSON.stringify(keys)).not.toContain(key.Secret);
    expect(await run('revoke-key', { account: account.ID, key: key.ID })).toEqual({
      Revoked: true,
      ID: key.ID,
      // Running APIs on this Redis, if any, heard it (key-revocation.test.ts has them).
      RunningProcessesNotified: expect.any(Number),
      Note: expect.stringMatching(/running API process\(es\) heard the revocation/),
    });
    expect(await findActiveApiKey(db.pool, key.Secret)).toBeNull();
    await expect(run('revoke-key', { account: account.ID, key: key.ID })).rejects.toThrow(/no active key/);
  });

  it('revoke-key still revokes when Redis does not answer, and says that running servers refuse the key within the TTL', async () => {
    const account = await run('create-account', { name: 'No Redis' });
    const key = await run('create-key', { account: account.ID, name: 'partner', scopes: 'ota' });
    const offline = { pool: db.pool, redisUrl: `redis://127.0.0.1:${await freePort()}`, queuePrefix: redis.prefix };
    const result = await partnerCommands['revoke-key']!.run({ account: account.ID, key: key.ID }, offline);
    expect(result).toEqual({ Revoked: true, ID: key.ID, RunningProcessesNotified: null, Note: expect.stringMatching(/AUTH_CACHE_TTL_MS/) });
    expect(await findActiveApiKey(db.pool, key.Secret)).toBeNull();
  });

  it('refuses bad input with a message naming the option', async () => {
    await expect(run('create-account', { name: 'X', 'time-zone': 'Mars/Olympus' })).rejects.toThrow(/--time-zone/);
    const account = await run('create-account', { name: 'Strict' });
    await expect(run('create-key', { account: account.ID, name: 'k', scopes: 'ota,root' })).rejects.toThrow(/unknown: root/);
    await expect(
      run('create-activity', { account: account.ID, name: 'A', duration: '0', price: '100', currency: 'EUR', 'max-participants': '4' }),
    ).rejects.toThrow(/durationMinutes/);
    await expect(
      run('create-activity', { account: account.ID, name: 'A', duration: '60', price: '1.5', currency: 'EUR', 'max-participants': '4' }),
    ).rejects.toThrow(/--price/);
    await expect(run('list-keys', { account: 'not-a-uuid' })).rejects.toThrow(/--account/);
  });

  it('creates activities, generates timeslots from a weekly pattern (DST gap reported, reruns harmless), adds questions', async () => {
    const account = await run('create-account', { name: 'Pattern Co', 'time-zone': 'America/New_York' });
    const activity = await run('create-activity', {
      account: account.ID,
      name: 'Harbour Kayak',
      description: 'Paddle.',
      duration: '90',
      price: '4500',
      currency: 'usd',
      'max-participants': '6',
    });
    expect(activity).toMatchObject({
      Name: 'Harbour Kayak',
      TimeZone: 'America/New_York',
      Price: { Amount: 4500, Currency: 'USD' },
      MaxParticipants: 6,
      InShopfront: true,
    });

    // 2027-03-14 is the Sunday New York springs forward: 02:30 does not exist there.
    const options = {
      account: account.ID,
      activity: activity.ActivityID,
      from: '2027-03-13',
      to: '2027-03-19',
      days: 'sat,sun',
      times: '02:30,09:00',
      capacity: '8',
    };
    const generated = await run('generate-timeslots', options);
    expect(generated).toMatchObject({ Created: 3, AlreadyExisting: 0, Skipped: [{ Date: '2027-03-14', Time: '02:30', Reason: 'nonexistent-local-time' }] });
    expect(await run('generate-timeslots', options)).toMatchObject({ Created: 0, AlreadyExisting: 3 });
    const { rows } = await db.pool.query(
      `SELECT to_char(local_date, 'YYYY-MM-DD') AS d, to_char(local_time, 'HH24:MI') AS t, starts_at FROM timeslots ORDER BY starts_at`,
    );
    expect(rows.filter((r) => r.d >= '2027-03-13' && r.d <= '2027-03-19').map((r) => `${r.d} ${r.t} ${r.starts_at.toISOString()}`)).toEqual([
      '2027-03-13 02:30 2027-03-13T07:30:00.000Z',
      '2027-03-13 09:00 2027-03-13T14:00:00.000Z',
      '2027-03-14 09:00 2027-03-14T13:00:00.000Z',
    ]);

    const question = await run('add-question', {
      account: account.ID,
      activity: activity.ActivityID,
      question: 'Swim?',
      type: 'select',
      options: 'Yes,No',
      required: true,
    });
    expect(question).toMatchObject({ Question: 'Swim?', Type: 'select', Required: true, Options: ['Yes', 'No'], PerParticipant: false });
    await expect(run('add-question', { account: account.ID, activity: activity.ActivityID, question: 'Pick', type: 'select' })).rejects.toThrow(
      /at least one option/,
    );
    await expect(run('add-question', { account: account.ID, activity: activity.ActivityID, question: 'Q', type: 'essay' })).rejects.toThrow(
      /type must be one of/,
    );
  });

  it("never reaches another account's activity", async () => {
    const owner = await run('create-account', { name: 'Owner' });
    const stranger = await run('create-account', { name: 'Stranger' });
    const activity = await run('create-activity', { account: owner.ID, name: 'Mine', duration: '60', price: '100', currency: 'EUR', 'max-participants': '2' });
    await expect(
      run('generate-timeslots', {
        account: stranger.ID,
        activity: activity.ActivityID,
        from: '2027-01-01',
        to: '2027-01-02',
        days: 'fri',
        times: '09:00',
        capacity: '1',
      }),
    ).rejects.toThrow(/no activity/);
    await expect(run('add-question', { account: stranger.ID, activity: activity.ActivityID, question: 'Q', type: 'text' })).rejects.toThrow(/no activity/);
  });

  it('books for the point of sale and the online shop, and lists bookings of every channel with payment references', async () => {
    const account = await run('create-account', { name: 'Channels', 'time-zone': 'Europe/Lisbon' });
    const activity = await run('create-activity', {
      account: account.ID,
      name: 'Climb',
      duration: '60',
      price: '1800',
      currency: 'EUR',
      'max-participants': '5',
    });
    const date = futureDate(5, 'Europe/Lisbon');
    await run('generate-timeslots', {
      account: account.ID,
      activity: activity.ActivityID,
      from: date,
      to: date,
      days: 'mon,tue,wed,thu,fri,sat,sun',
      times: '10:00,15:00',
      capacity: '4',
    });
    const person = { 'first-name': 'Rita', 'last-name': 'Gomes', email: 'rita@example.com' };
    const pos = await run('create-booking', {
      account: account.ID,
      activity: activity.ActivityID,
      date,
      time: '10:00',
      participants: '2',
      ...person,
      'payment-reference': 'POS-77',
    });
    expect(pos).toMatchObject({ Channel: 'pos', Participants: 2, PaymentReference: 'POS-77', Status: 'confirmed' });
    const online = await run('create-booking', {
      account: account.ID,
      activity: activity.ActivityID,
      date,
      time: '15:00',
      participants: '1',
      ...person,
      channel: 'online',
      'payment-reference': 'pi_123',
    });
    expect(online.Channel).toBe('online');
    // The same atomic reservation as the API: the slot has 2 places left.
    await expect(
      run('create-booking', { account: account.ID, activity: activity.ActivityID, date, time: '10:00', participants: '3', ...person }),
    ).rejects.toThrow(/only 2 places are left/);
    await expect(run('create-booking', { account: account.ID, activity: activity.ActivityID, date, time: '10:00', ...person, channel: 'ota' })).rejects.toThrow(
      /--channel/,
    );
    const ota = await reserveBooking(createBookingStore(db.pool), {
      accountId: account.ID,
      apiKeyId: null,
      partnerId: null,
      hold: null,
      channel: 'ota',
      activityId: activity.ActivityID,
      date,
      time: '15:00',
      participants: 1,
      customer: { FirstName: 'Partner', LastName: 'Customer', Email: 'p@example.com' },
      paymentReference: 'ota-pay-9',
      answers: undefined,
    });

    const listed = await run('list-bookings', { account: account.ID });
    expect(listed.map((b: { Reference: string; Channel: string; PaymentReference: string }) => [b.Reference, b.Channel, b.PaymentReference])).toEqual([
      [pos.Reference, 'pos', 'POS-77'],
      [online.Reference, 'online', 'pi_123'],
      [ota.Reference, 'ota', 'ota-pay-9'],
    ]);
    expect(listed[0]).toMatchObject({ ActivityName: 'Climb', Date: date, Time: '10:00', Customer: { FirstName: 'Rita' } });
    expect(listed[0].StartsAt).toMatch(new RegExp(`^${date}T10:00:00[+-]\\d\\d:\\d\\d$`));
    expect(await run('list-bookings', { account: account.ID, from: futureDate(6, 'Europe/Lisbon') })).toEqual([]);
  });
});

describe('demo seed', () => {
  it('seeds the demo operator once: three activities in a non-UTC zone, 60 days of timeslots, a required file question, keys per use', async () => {
    const seeded = await seedDemoOperator(db.pool);
    expect(seeded).not.toBeNull();
    expect(seeded!.accountId).toBe(DEMO_ACCOUNT_ID);
    expect(await seedDemoOperator(db.pool)).toBeNull();

    const scopes = async (secret: string) => (await findActiveApiKey(db.pool, secret))?.scopes;
    expect(await scopes(seeded!.keys.ota!)).toEqual(['ota']);
    expect(await scopes(seeded!.keys.usage!)).toEqual(['usage:write', 'usage:read']);
    expect(await scopes(seeded!.keys.platform!)).toEqual(['platform:events']);
    expect(await scopes(seeded!.keys.all!)).toEqual(['ota', 'usage:write', 'usage:read', 'platform:events', 'admin']);

    const { rows: activities } = await db.pool.query<{ time_zone: string; days: number; required_files: number }>(
      `SELECT a.time_zone,
              (SELECT count(DISTINCT local_date) FROM timeslots t WHERE t.activity_id = a.id) AS days,
              (SELECT count(*) FROM waiver_questions q WHERE q.activity_id = a.id AND q.type = 'file' AND q.required) AS required_files
         FROM activities a WHERE a.account_id = $1`,
      [DEMO_ACCOUNT_ID],
    );
    expect(activities).toHaveLength(3);
    for (const a of activities) {
      expect(a.time_zone).not.toBe('UTC');
      expect(a.days).toBeGreaterThanOrEqual(51); // 60 days; the climbing wall rests on Sundays
      expect(a.required_files).toBe(1);
    }
    const { rows: channels } = await db.pool.query(`SELECT DISTINCT channel FROM bookings WHERE account_id = $1 ORDER BY channel`, [DEMO_ACCOUNT_ID]);
    expect(channels.map((r) => r.channel)).toEqual(['online', 'pos']);
  });
});
