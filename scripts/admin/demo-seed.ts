// The demo operator `npm start` seeds once: an outdoor company in Lisbon with three activities, 60 days of
// timeslots, waiver questions (including a required file upload), a few online and point-of-sale bookings, and one
// API key per use. This module holds the demo's data; the use cases write it: seedOperator everything but the
// bookings, in one transaction, so a crash leaves nothing half-made (a second start finds the account and returns
// null), then createSale the bookings.
import { SCOPES, type BookingChannel, type NewOperatorActivity, type NewQuestion, type Scope, type TimeslotPattern } from '@backbone/contracts';
import { findAccount, findBookingPageSettings, findOperatorUserByEmail, type Pool } from '@backbone/db';
import { addDays, todayIn, ValidationError, weekdayOf } from '@backbone/domain';
import { createOperatorKey, createOperatorUser, createSale, seedOperator, updateOperatorBookingPage } from '@backbone/use-cases';

export const DEMO_ACCOUNT_ID = 'd3e0d3e0-0000-4000-8000-000000000001';
const DEMO_TIME_ZONE = 'Europe/Lisbon';
const DAYS = 60;
const EVERY_DAY: TimeslotPattern['Days'] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

interface DemoActivity {
  activityId: string;
  activity: NewOperatorActivity;
  days: TimeslotPattern['Days'];
  times: string[];
  capacity: number;
  questions: NewQuestion[];
}

const waiverFile: NewQuestion = { Question: 'Upload a photo of a signed liability waiver or ID.', Type: 'file', Required: true };
const acceptTerms: NewQuestion = { Question: 'I accept the terms and the liability waiver.', Type: 'checkbox', Required: true };

const DEMO_ACTIVITIES: DemoActivity[] = [
  {
    activityId: 'd3e0d3e0-0000-4000-8000-00000000a001',
    activity: {
      Name: 'Sunset Kayak Tour',
      Description: 'Two hours along the Tagus estuary at sunset, guide and equipment included.',
      DurationMinutes: 120,
      TimeZone: DEMO_TIME_ZONE,
      Price: { Amount: 4500, Currency: 'EUR' },
      MaxParticipants: 8,
    },
    days: EVERY_DAY,
    times: ['09:00', '17:30'],
    capacity: 12,
    questions: [
      waiverFile,
      acceptTerms,
      {
        Question: 'How well does this participant swim?',
        Type: 'select',
        Required: true,
        Options: ['Not at all', 'A little', 'Confidently'],
        PerParticipant: true,
      },
      { Question: 'Any medical conditions we should know about?', Type: 'textarea' },
    ],
  },
  {
    activityId: 'd3e0d3e0-0000-4000-8000-00000000a002',
    activity: {
      Name: 'Escape Room: The Lighthouse',
      Description: "Sixty minutes to find the keeper's log before the lamp goes out. For 2 to 6 players.",
      DurationMinutes: 60,
      TimeZone: DEMO_TIME_ZONE,
      Price: { Amount: 2500, Currency: 'EUR' },
      MaxParticipants: 6,
    },
    days: EVERY_DAY,
    times: ['10:00', '12:00', '14:00', '16:00', '18:00', '20:00'],
    capacity: 6,
    questions: [waiverFile, { Question: 'Team name', Type: 'text' }],
  },
  {
    activityId: 'd3e0d3e0-0000-4000-8000-00000000a003',
    activity: {
      Name: 'Indoor Climbing Session',
      Description: 'Ninety minutes of bouldering and top-rope climbing with an instructor.',
      DurationMinutes: 90,
      TimeZone: DEMO_TIME_ZONE,
      Price: { Amount: 1800, Currency: 'EUR' },
      MaxParticipants: 10,
    },
    days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
    times: ['10:00', '15:00', '19:00'],
    capacity: 20,
    questions: [
      waiverFile,
      acceptTerms,
      { Question: 'Shoe size (EU)', Type: 'number', PerParticipant: true },
      { Question: 'Experience', Type: 'multiselect', Options: ['Bouldering', 'Top rope', 'Lead'] },
    ],
  },
];

const DEMO_KEYS: Record<string, Scope[]> = {
  ota: ['ota'],
  usage: ['usage:write', 'usage:read'],
  platform: ['platform:events'],
  all: [...SCOPES],
};

const SAMPLE_BOOKINGS: Array<{
  activity: number;
  day: number;
  time: string;
  participants: number;
  channel: BookingChannel;
  payment: string | null;
  name: [string, string];
  email: string;
}> = [
  {
    activity: 0,
    day: 1,
    time: '17:30',
    participants: 2,
    channel: 'online',
    payment: 'stripe_pi_3PDemo001',
    name: ['Marta', 'Silva'],
    email: 'marta.silva@example.com',
  },
  { activity: 1, day: 1, time: '18:00', participants: 4, channel: 'pos', payment: 'POS-0001', name: ['João', 'Pereira'], email: 'joao.pereira@example.com' },
  { activity: 2, day: 2, time: '10:00', participants: 1, channel: 'pos', payment: null, name: ['Ana', 'Costa'], email: 'ana.costa@example.com' },
  {
    activity: 0,
    day: 3,
    time: '09:00',
    participants: 3,
    channel: 'online',
    payment: 'stripe_pi_3PDemo002',
    name: ['Tom', 'Baker'],
    email: 'tom.baker@example.com',
  },
];

/** Seeds the demo operator unless it exists; returns the new keys' secrets (shown once), or null when already seeded. */
export async function seedDemoOperator(pool: Pool): Promise<null | { accountId: string; keys: Record<string, string> }> {
  const today = todayIn(DEMO_TIME_ZONE);
  const seeded = await seedOperator(
    { pool },
    {
      account: { id: DEMO_ACCOUNT_ID, name: 'Demo Outdoor Co.', timeZone: DEMO_TIME_ZONE },
      activities: DEMO_ACTIVITIES.map((demo) => ({
        activityId: demo.activityId,
        activity: demo.activity,
        timeslots: { From: today, To: addDays(today, DAYS - 1), Days: demo.days, Times: demo.times, Capacity: demo.capacity },
        questions: demo.questions,
      })),
      keys: Object.entries(DEMO_KEYS).map(([name, scopes]) => ({ name: `demo ${name}`, scopes })),
    },
  );
  if (!seeded) return null;

  for (const sample of SAMPLE_BOOKINGS) {
    const demo = DEMO_ACTIVITIES[sample.activity]!;
    // The sample's day, or the next one its activity runs (the climbing gym is closed on Sundays).
    let date = addDays(today, sample.day);
    while (!demo.days.includes(weekdayOf(date))) date = addDays(date, 1);
    await createSale(
      { pool },
      {
        accountId: DEMO_ACCOUNT_ID,
        apiKeyId: null,
        userId: null,
        channel: sample.channel,
        sale: {
          ActivityID: demo.activityId,
          Date: date,
          Time: sample.time,
          Participants: sample.participants,
          Customer: { FirstName: sample.name[0], LastName: sample.name[1], Email: sample.email },
          ...(sample.payment ? { PaymentReference: sample.payment } : {}),
        },
      },
    );
  }
  const names = Object.keys(DEMO_KEYS);
  return { accountId: DEMO_ACCOUNT_ID, keys: Object.fromEntries(seeded.keys.map((key, i) => [names[i]!, key.secret])) };
}

/** The name under which the demo's sandbox key is printed and kept in demo-keys.json. */
export const DEMO_TEST_KEY = 'ota (test)';

/**
 * The demo reseller's sandbox key: a test key of the demo ota key's partner, for trying the partner API and OCTO
 * without taking live places (and for the OCTO validator). Made beside a stack seeded before the sandbox existed too.
 */
export async function createDemoTestKey(pool: Pool): Promise<string> {
  const key = await createOperatorKey(
    { pool },
    { accountId: DEMO_ACCOUNT_ID, name: 'demo ota (test)', scopes: ['ota'], partner: 'demo ota', test: true, actor: { kind: 'system' } },
  );
  return key.secret;
}

export const DEMO_OWNER_EMAIL = 'owner@demo-outdoor.example';

/**
 * Creates the demo account's console owner unless it exists (also for a stack seeded before the console existed);
 * returns the one-time password, or null when the owner was already there.
 */
export async function seedDemoOwner(pool: Pool): Promise<null | { Email: string; Password: string }> {
  if (!(await findAccount(pool, DEMO_ACCOUNT_ID))) return null;
  if (await findOperatorUserByEmail(pool, DEMO_ACCOUNT_ID, DEMO_OWNER_EMAIL)) return null;
  try {
    const { password } = await createOperatorUser({ pool }, { accountId: DEMO_ACCOUNT_ID, email: DEMO_OWNER_EMAIL, role: 'owner', actor: { kind: 'system' } });
    return { Email: DEMO_OWNER_EMAIL, Password: password };
  } catch (error) {
    // Another process created it at the same moment.
    if (error instanceof ValidationError) return null;
    throw error;
  }
}

export const DEMO_BOOKING_PAGE_SLUG = 'demo-outdoor';

/**
 * Turns the demo account's booking page on at /book/demo-outdoor unless its page was set already (also for a stack
 * seeded before the booking page existed); an owner who turned it off keeps it off.
 */
export async function seedDemoBookingPage(pool: Pool): Promise<string | null> {
  const page = await findBookingPageSettings(pool, DEMO_ACCOUNT_ID);
  if (!page) return null;
  if (page.slug !== null) return page.enabled ? page.slug : null;
  const saved = await updateOperatorBookingPage(
    { pool },
    {
      accountId: DEMO_ACCOUNT_ID,
      changes: { Enabled: true, Slug: DEMO_BOOKING_PAGE_SLUG, Note: 'Meet 15 minutes before the start. Pay at the venue, by card or cash.' },
      actor: { kind: 'system' },
    },
  );
  return saved.Slug;
}
