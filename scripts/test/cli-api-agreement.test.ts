// The admin CLI and the console's API call the same use cases and check the same contract, so the same input gives
// the same result through either: a padded activity name is stored trimmed by both, and a phone number or an e-mail
// address the API refuses is refused by the CLI too (it once stored them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeQueues, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import { futureDate, request, useTestDatabase, useTestRedis, useTestServer } from '@backbone/testkit';
import { operatorCommands } from '../admin/operator.commands.js';
import { partnerCommands } from '../admin/partner.commands.js';

const db = useTestDatabase();
const redis = useTestRedis();
let queues: EventQueues | undefined;
const operatorApi = useTestServer(() => {
  const connection = redis.connection();
  queues = openQueues(connection, redis.prefix);
  return createTestOperatorApp({ pool: db.pool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues });
});
afterAll(async () => {
  if (queues) await closeQueues(queues);
});

const commands = { ...partnerCommands, ...operatorCommands };
// Commands return plain JSON-able objects; tests read their members freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cli = async (command: string, options: Record<string, string | boolean>): Promise<any> =>
  JSON.parse(JSON.stringify(await commands[command]!.run(options, { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix })));

let accountId: string;
let adminKey: string;
let activityId: string;
const date = futureDate(3, 'Europe/Lisbon');
const api = (method: string, path: string, body: unknown) => request(operatorApi.url, method, path, { key: adminKey, body });

beforeAll(async () => {
  accountId = (await cli('create-account', { name: 'Agreement Co', 'time-zone': 'Europe/Lisbon' })).ID;
  adminKey = (await cli('create-key', { account: accountId, name: 'console', scopes: 'admin' })).Secret;
  const activity = await cli('create-activity', { account: accountId, name: 'Climb', duration: '60', price: '1800', currency: 'EUR', 'max-participants': '6' });
  activityId = activity.ActivityID;
  await cli('generate-timeslots', {
    account: accountId,
    activity: activityId,
    from: date,
    to: date,
    days: 'mon,tue,wed,thu,fri,sat,sun',
    times: '10:00',
    capacity: '20',
  });
});

describe('the admin CLI and the console API agree', () => {
  it('create-activity: a padded name is stored trimmed by both', async () => {
    const fields = { duration: '90', price: '4500', currency: 'EUR', 'max-participants': '6' };
    const byCli = await cli('create-activity', { account: accountId, name: '  Harbour Kayak  ', ...fields });
    const byApi = await api('POST', '/api/v2/operator/activities', {
      Name: '  Harbour Kayak  ',
      DurationMinutes: 90,
      TimeZone: 'Europe/Lisbon',
      Price: { Amount: 4500, Currency: 'EUR' },
      MaxParticipants: 6,
    });
    expect(byApi.status).toBe(201);
    const { ActivityID: _cli, ID: _cliId, ...fromCli } = byCli;
    const { ActivityID: _api, ID: _apiId, ...fromApi } = byApi.body;
    expect(fromCli).toEqual(fromApi);
    expect(fromCli.Name).toBe('Harbour Kayak');
  });

  it('create-booking: a phone number the sale API refuses is refused by the CLI, naming the option; a good one is booked by both', async () => {
    const customer = { FirstName: 'Rita', LastName: 'Gomes', Email: 'rita@example.com' };
    const sale = { ActivityID: activityId, Date: date, Time: '10:00', Participants: 1 };
    const refused = await api('POST', '/api/v2/operator/sales', { ...sale, Customer: { ...customer, Phone: 'call me' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ field: 'Customer.Phone', message: expect.stringMatching(/must be a phone number/) }]);
    const options = { account: accountId, activity: activityId, date, time: '10:00', 'first-name': 'Rita', 'last-name': 'Gomes', email: 'rita@example.com' };
    await expect(cli('create-booking', { ...options, phone: 'call me' })).rejects.toThrow(/^--phone must be a phone number/);

    const byApi = await api('POST', '/api/v2/operator/sales', { ...sale, Customer: { ...customer, Phone: '+351 912 345 678' } });
    const byCli = await cli('create-booking', { ...options, phone: '+351 912 345 678' });
    expect(byApi.status).toBe(201);
    const comparable = ({ Reference: _r, CreatedAt: _c, ...booking }: Record<string, unknown>) => booking;
    expect(comparable(byCli)).toEqual(comparable(byApi.body));
  });

  it('create-user: an e-mail address the users API refuses is refused by the CLI too', async () => {
    const refused = await api('POST', '/api/v2/operator/users', { Email: 'not an address', Role: 'staff' });
    expect(refused.status).toBe(422);
    await expect(cli('create-user', { account: accountId, email: 'not an address', role: 'staff' })).rejects.toThrow(/^--email /);
    expect(await cli('create-user', { account: accountId, email: 'staff@agreement.example', role: 'staff' })).toMatchObject({
      Email: 'staff@agreement.example',
    });
  });
});
