// Time zones: timeslots generated from a weekly pattern on the days daylight saving starts and ends in the
// activity's zone come out with the right local Time and UTC offset; local dates are the activity's, not UTC's.
import { beforeAll, describe, expect, it } from 'vitest';
import { insertTimeslots } from '@backbone/db';
import { planTimeslots, type Activity } from '@backbone/domain';
import { createTestActivity, createTestTimeslot, futureDate, request } from '@backbone/testkit';
import { bookingBody, createOperator, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
let op: Operator;

/** UTC offset in minutes of `zone` at `instant`, from Intl (independent of the code under test). */
function offsetMinutes(zone: string, instant: Date): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
  return Math.round((asUtc - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

/** The next local dates (after a week from now) on which the zone's offset goes up (DST starts) and down (ends). */
function nextTransitions(zone: string): { start: string; end: string } {
  let start: string | undefined;
  let end: string | undefined;
  for (let day = 7; day < 7 + 400 && !(start && end); day++) {
    const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    const before = offsetMinutes(zone, new Date(`${date}T00:00:00Z`));
    const after = offsetMinutes(zone, new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000));
    // The change happens on the local date that contains it; UTC midnight-to-midnight is close enough for zones
    // whose transitions fall in the local night, which is the case for the zones tested here.
    if (after > before && !start) start = localDateOfChange(zone, date);
    if (after < before && !end) end = localDateOfChange(zone, date);
  }
  if (!start || !end) throw new Error(`no daylight-saving transitions found for ${zone}`);
  return { start, end };
}

function localDateOfChange(zone: string, utcDate: string): string {
  for (let hour = 0; hour < 24; hour++) {
    const a = new Date(Date.parse(`${utcDate}T00:00:00Z`) + hour * 3_600_000);
    const b = new Date(a.getTime() + 3_600_000);
    if (offsetMinutes(zone, a) !== offsetMinutes(zone, b)) return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(a);
  }
  return utcDate;
}

const offset = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
const weekday = (date: string) => ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date(`${date}T00:00:00Z`).getUTCDay()]!;

async function activityWithPattern(zone: string, date: string, times: string[], durationMinutes = 90) {
  const activity = await createTestActivity(db.pool, op.account.id, { timeZone: zone, durationMinutes, maxParticipants: 10 });
  const plan = planTimeslots({ from: date, to: date, days: [weekday(date)], times, timeZone: zone, durationMinutes, capacity: 10 });
  await insertTimeslots(db.pool, op.account.id, activity.id, plan.timeslots);
  return { activity, plan };
}

const timeslots = async (activity: Activity, date: string) =>
  (await request(server.url, 'GET', `/api/v2/ota/partner/availability/${activity.activityId}/timeslots?Date=${date}`, { key: op.ota })).body as Array<{
    Time: string;
    StartsAt: string;
    EndsAt: string;
  }>;

beforeAll(async () => {
  op = await createOperator(db.pool);
});

describe.each([
  // zone, standard offset, summer offset, the wall-clock hour that is skipped in spring and repeated in autumn
  ['Europe/Berlin', 60, 120, '02'],
  ['America/New_York', -300, -240, '01'],
] as const)('%s', (zone, standard, summer, repeatedHour) => {
  const { start, end } = nextTransitions(zone);
  const std = offset(standard);
  const dst = offset(summer);

  it(`on the day daylight saving starts, skips the missing hour and switches to ${dst}`, async () => {
    // Both zones jump from 02:00 to 03:00.
    const skipped = '02:30';
    const { activity, plan } = await activityWithPattern(zone, start, ['00:30', '01:30', skipped, '03:00', '09:00']);
    expect(plan.skipped).toEqual([{ date: start, time: skipped, reason: 'nonexistent-local-time' }]);
    const slots = await timeslots(activity, start);
    expect(slots.map((s) => s.Time)).toEqual(['00:30', '01:30', '03:00', '09:00']);
    expect(slots.find((s) => s.Time === '00:30')!.StartsAt).toBe(`${start}T00:30:00${std}`);
    expect(slots.find((s) => s.Time === '03:00')!.StartsAt).toBe(`${start}T03:00:00${dst}`);
    expect(slots.find((s) => s.Time === '09:00')!.StartsAt).toBe(`${start}T09:00:00${dst}`);
    // 01:30 plus 90 real minutes crosses the jump: it ends at 04:00 summer time, not 03:00.
    expect(slots.find((s) => s.Time === '01:30')!.EndsAt).toBe(`${start}T04:00:00${dst}`);
  });

  it(`on the day daylight saving ends, gives the repeated ${repeatedHour}:30 one timeslot, at its first occurrence`, async () => {
    const { activity, plan } = await activityWithPattern(zone, end, ['00:30', `${repeatedHour}:30`, '03:00', '09:00']);
    expect(plan.skipped).toEqual([]);
    const slots = await timeslots(activity, end);
    expect(slots.map((s) => s.Time)).toEqual(['00:30', `${repeatedHour}:30`, '03:00', '09:00']);
    expect(slots.find((s) => s.Time === `${repeatedHour}:30`)!.StartsAt).toBe(`${end}T${repeatedHour}:30:00${dst}`);
    expect(slots.find((s) => s.Time === '03:00')!.StartsAt).toBe(`${end}T03:00:00${std}`);
    expect(slots.find((s) => s.Time === '09:00')!.StartsAt).toBe(`${end}T09:00:00${std}`);
    // 90 real minutes from the first pass of hh:30 end at (hh+1):00 standard time: the clock went back an hour.
    const nextHour = String(Number(repeatedHour) + 1).padStart(2, '0');
    expect(slots.find((s) => s.Time === `${repeatedHour}:30`)!.EndsAt).toBe(`${end}T${nextHour}:00:00${std}`);
    const dates = await request(server.url, 'GET', `/api/v2/ota/partner/availability/${activity.activityId}/dates?StartDate=${end}&EndDate=${end}`, {
      key: op.ota,
    });
    expect(dates.body).toEqual([{ Date: end, Available: 40, Timeslots: 4 }]);
  });

  it('books a timeslot on the transition day by its local Date and Time', async () => {
    const { activity } = await activityWithPattern(zone, end, [`${repeatedHour}:30`]);
    const res = await request(server.url, 'POST', '/api/v2/ota/partner/booking', {
      key: op.ota,
      body: bookingBody(activity, { date: end, time: `${repeatedHour}:30` }, { Participants: 2 }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Date: end, Time: `${repeatedHour}:30` });
    expect((await timeslots(activity, end))[0]).toMatchObject({ Time: `${repeatedHour}:30`, StartsAt: `${end}T${repeatedHour}:30:00${dst}` });
  });
});

describe('a zone with a half-hour daylight-saving shift (Australia/Lord_Howe)', () => {
  const zone = 'Australia/Lord_Howe';
  const { end } = nextTransitions(zone);

  it('gives the repeated 01:45 one timeslot at its first occurrence (+11:00), later ones at +10:30', async () => {
    const { activity } = await activityWithPattern(zone, end, ['01:45', '02:00'], 30);
    const slots = await timeslots(activity, end);
    expect(slots).toEqual([
      expect.objectContaining({ Time: '01:45', StartsAt: `${end}T01:45:00+11:00` }),
      expect.objectContaining({ Time: '02:00', StartsAt: `${end}T02:00:00+10:30` }),
    ]);
  });
});

describe('local dates belong to the activity zone', () => {
  it('lists a 00:30 Auckland timeslot under its local date, although in UTC it is the day before', async () => {
    const zone = 'Pacific/Auckland';
    const date = futureDate(15, zone);
    const activity = await createTestActivity(db.pool, op.account.id, { timeZone: zone });
    const slot = await createTestTimeslot(db.pool, activity, { date, time: '00:30' });
    expect(slot.startsAt.toISOString().slice(0, 10)).not.toBe(date);
    const dayBefore = new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await timeslots(activity, date)).map((s) => s.Time)).toEqual(['00:30']);
    expect(await timeslots(activity, dayBefore)).toEqual([]);
    const dates = await request(server.url, 'GET', `/api/v2/ota/partner/availability/${activity.activityId}/dates?StartDate=${dayBefore}&EndDate=${date}`, {
      key: op.ota,
    });
    expect(dates.body.map((d: { Date: string }) => d.Date)).toEqual([date]);
    expect((await timeslots(activity, date))[0]!.StartsAt).toMatch(new RegExp(`^${date}T00:30:00\\+1[23]:00$`));
  });
});
