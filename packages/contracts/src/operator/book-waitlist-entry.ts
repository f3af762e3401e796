// POST /api/v2/operator/waitlist/:WaitlistID/book: staff book an entry by hand (a caller on the phone).
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { waitlistEntryAnswers, waitlistEntryParamsSchema } from './waitlist.schemas.js';

export const bookWaitlistEntryOperation = {
  operationId: 'bookWaitlistEntry',
  method: 'post',
  path: '/api/v2/operator/waitlist/:WaitlistID/book',
  summary: 'Book a waitlist entry',
  description:
    "A waiting entry is booked at once (point of sale, the entry's party and contact; never oversold); an offered one has its held places confirmed. The entry is then claimed, and BookingReference names the booking. Booking again answers the entry.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: waitlistEntryParamsSchema,
  responses: {
    ...waitlistEntryAnswers,
    409: {
      description:
        '`/insufficient-capacity`: not enough free places for the party; `/timeslot-unavailable`: closed or started; `/hold-expired`: the offer lapsed; `/invalid-transition`: expired or removed.',
    },
  },
} as const satisfies Operation;
