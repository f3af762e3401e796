// What the operator's activity operations share (create and edit an activity, list and add its questions, generate
// its timeslots): an activity's editable members and the ActivityID parameter. Internal: the package's entries do not
// re-export it.
import { textSchema, uuidSchema } from '../common.schemas.js';

export const activityParams = { type: 'object', required: ['ActivityID'], properties: { ActivityID: uuidSchema } } as const;

export const activityFields = {
  Name: { ...textSchema(200), minLength: 1 },
  Description: textSchema(10_000),
  DurationMinutes: { type: 'integer', minimum: 1, maximum: 10_080 },
  Price: {
    type: 'object',
    additionalProperties: false,
    required: ['Amount', 'Currency'],
    properties: {
      Amount: { type: 'integer', minimum: 0, maximum: 9007199254740991, description: 'Minor units (cents).' },
      Currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
  },
  MaxParticipants: { type: 'integer', minimum: 1, maximum: 1000 },
  InShopfront: { type: 'boolean', description: 'Offered to partners.' },
  Active: { type: 'boolean', description: 'Bookable at all.' },
} as const;
