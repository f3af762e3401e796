// The demo operator `npm start` seeds once: an outdoor company in Lisbon with three activities, 60 days of
// timeslots, waiver questions (including a required file upload), a few online and point-of-sale bookings, and one
// API key per use. Everything but the bookings is written in one transaction, so a crash leaves nothing half-made;
// a second start finds the account and returns null.
import { SCOPES, type BookingChannel, type Scope } from '@backbone/contracts';
import {
  addQuestion,
  createAccount,
  createActivity,
  createApiKey,
  findAccount,
  findOperatorUserByEmail,
  insertTimeslots,
  withTransaction,
  type Pool,
} from '@backbone/db';
import { createBooking, createOperatorUser } from '@backbone/use-cases';
import { addDays, checkNewQuestion, planTimeslots, todayIn, ValidationError, type Activity, type NewActivity, type NewWaiverQuestion } from '@backbone/domain';

export const DEMO_ACCOUNT_ID = 'd3e0d3e0-0000-4000-8000-000000000001';
const DEMO_TIME_ZONE = 'Europe/Lisbon';
const DAYS = 60;
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

interface DemoActivity {
  activity: NewActivity & { activityId: string };
  days: string[];
  times: string[];
  capacity: number;
  questions: NewWaiverQuestion[];
}

const waiverFile: NewWaiverQuestion = {
  question: 'Upload a photo of a signed liability waiver or ID.',
  type: 'file',
  required: true,
  options: [],
  perParticipant: false,
};
const acceptTerms: NewWaiverQuestion = {
  question: 'I accept the terms and the liability waiver.',
  type: 'checkbox',
  required: true,
  options: [],
  perParticipant: false,
};

const DEMO_ACTIVITIES: DemoActivity[] = [
  {
    activity: {
      activityId: 'd3e0d3e0-0000-4000-8000-00000000a001',
      name: 'Sunset Kayak Tour',
      description: 'Two hours along the Tagus estuary at sunset, guide and equipment included.',
      durationMinutes: 120,
      timeZone: DEMO_TIME_ZONE,
      priceMinor: 4500,
      currency: 'EUR',
      maxParticipants: 8,
    },
    days: EVERY_DAY,
    times: ['09:00', '17:30'],
    capacity: 12,
    questions: [
      waiverFile,
      acceptTerms,
      {
        question: 'How well does this participant swim?',
        type: 'select',
        required: true,
        options: ['Not at all', 'A little', 'Confidently'],
        perParticipant: true,
      },
      { question: 'Any medical conditions we should know about?', type: 'textarea', required: false, options: [], perParticipant: false },
    ],
  },
  {
    activity: {
      activityId: 'd3e0d3e0-0000-4000-8000-00000000a002',
      name: 'Escape Room: The Lighthouse',
      description: "Sixty minutes to find the keeper's log before the lamp goes out. For 2 to 6 players.",
      durationMinutes: 60,
      timeZone: DEMO_TIME_ZONE,
      priceMinor: 2500,
      currency: 'EUR',
      maxParticipants: 6,
    },
    days: EVERY_DAY,
    times: ['10:00', '12:00', '14:00', '16:00', '18:00', '20:00'],
    capacity: 6,
    questions: [waiverFile, { question: 'Team name', type: 'text', required: false, options: [], perParticipant: false }],
  },
  {
    activity: {
      activityId: 'd3e0d3e0-0000-4000-8000-00000000a003',
      name: 'Indoor Climbing Session',
      description: 'Ninety minutes of bouldering and top-rope climbing with an instructor.',
      durationMinutes: 90,
      timeZone: DEMO_TIME_ZONE,
      priceMinor: 1800,
      currency: 'EUR',
      maxParticipants: 10,
    },
    days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
    times: ['10:00', '15:00', '19:00'],
    capacity: 20,
    questions: [
      waiverFile,
      acceptTerms,
      { question: 'Shoe size (EU)', type: 'number', required: false, options: [], perParticipant: true },
      { question: 'Experience', type: 'multiselect', required: false, options: ['Bouldering', 'Top rope', 'Lead'], perParticipant: false },
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
  if (await findAccount(pool, DEMO_ACCOUNT_ID)) return null;
  const today = todayIn(DEMO_TIME_ZONE);
  let seeded: { activities: Activity[]; keys: Record<string, string> };
  try {
    seeded = await withTransaction(pool, async (client) => {
      await createAccount(client, { id: DEMO_ACCOUNT_ID, name: 'Demo Outdoor Co.', timeZone: DEMO_TIME_ZONE });
      const activities: Activity[] = [];
      for (const demo of DEMO_ACTIVITIES) {
        const activity = await createActivity(client, DEMO_ACCOUNT_ID, demo.activity);
        activities.push(activity);
        const plan = planTimeslots({
          from: today,
          to: addDays(today, DAYS - 1),
          days: demo.days,
          times: demo.times,
          timeZone: activity.timeZone,
          durationMinutes: activity.durationMinutes,
          capacity: demo.capacity,
        });
        await insertTimeslots(client, DEMO_ACCOUNT_ID, activity.id, plan.timeslots);
        for (const question of demo.questions) {
          checkNewQuestion(question);
          await addQuestion(client, DEMO_ACCOUNT_ID, activity.id, question);
        }
      }
      const keys: Record<string, string> = {};
      for (const [name, scopes] of Object.entries(DEMO_KEYS)) {
        keys[name] = (await createApiKey(client, DEMO_ACCOUNT_ID, { name: `demo ${name}`, scopes })).secret;
      }
      return { activities, keys };
    });
  } catch (error) {
    // Another process seeded it at the same moment (the account id is fixed).
    if ((error as { code?: string }).code === '23505') return null;
    throw error;
  }

  for (const sample of SAMPLE_BOOKINGS) {
    const activity = seeded.activities[sample.activity]!;
    await createBooking(
      { pool },
      {
        accountId: DEMO_ACCOUNT_ID,
        apiKeyId: null,
        partnerId: null,
        hold: null,
        channel: sample.channel,
        activityId: activity.activityId,
        date: addDays(today, sample.day),
        time: sample.time,
        participants: sample.participants,
        customer: { FirstName: sample.name[0], LastName: sample.name[1], Email: sample.email },
        paymentReference: sample.payment,
        answers: undefined,
      },
    );
  }
  return { accountId: DEMO_ACCOUNT_ID, keys: seeded.keys };
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
    const { password } = await createOperatorUser({ pool }, { accountId: DEMO_ACCOUNT_ID, email: DEMO_OWNER_EMAIL, role: 'owner' });
    return { Email: DEMO_OWNER_EMAIL, Password: password };
  } catch (error) {
    // Another process created it at the same moment.
    if (error instanceof ValidationError) return null;
    throw error;
  }
}
