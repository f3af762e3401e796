// POST /api/v2/operator/waitlist/:WaitlistID/offer: offer free places to an entry by hand, out of the queue's order.
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { waitlistEntryAnswers, waitlistEntryParamsSchema } from './waitlist.schemas.js';

export const offerWaitlistEntryOperation = {
  operationId: 'offerWaitlistEntry',
  method: 'post',
  path: '/api/v2/operator/waitlist/:WaitlistID/offer',
  summary: 'Offer places to a waitlist entry',
  description:
    "Holds the entry's places (the same conditional capacity update as every booking: never oversold) for the account's offer time and e-mails the offer with its claim link, as when places free up. Offering an entry already offered answers it.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: waitlistEntryParamsSchema,
  responses: {
    ...waitlistEntryAnswers,
    409: {
      description:
        '`/insufficient-capacity`: not enough free places for the party (`Available`); `/timeslot-unavailable`: closed or started; `/invalid-transition`: claimed, expired or removed.',
    },
  },
} as const satisfies Operation;
