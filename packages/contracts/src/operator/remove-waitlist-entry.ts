// DELETE /api/v2/operator/waitlist/:WaitlistID: take an entry off the waitlist (owners and staff); an open offer's
// places are let go and pass on.
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { waitlistEntryAnswers, waitlistEntryParamsSchema } from './waitlist.schemas.js';

export const removeWaitlistEntryOperation = {
  operationId: 'removeWaitlistEntry',
  method: 'delete',
  path: '/api/v2/operator/waitlist/:WaitlistID',
  summary: 'Remove a waitlist entry',
  description:
    'A waiting entry leaves the queue; an offered one also lets its held places go (they pass on to the next entries that fit). Removing again answers the entry. A claimed entry stays (its booking is cancelled as a booking).',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: waitlistEntryParamsSchema,
  responses: {
    ...waitlistEntryAnswers,
    409: { description: '`/invalid-transition`: the entry was claimed (a booking now) or expired.' },
  },
} as const satisfies Operation;
