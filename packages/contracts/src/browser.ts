// The browser's entry to the contracts (the console): the operator operations and the types derived from them,
// without the ajv validator, whose module-level set-up a bundler could not leave out.
export * from './common.schemas.js';
export type { Operation, OperatorRole, Scope } from './operation.js';
export { OPERATOR_ROLES } from './operation.js';
export { QUESTION_TYPES, type Question, type QuestionType } from './partner/shared.schemas.js';
export * from './operator/sign-in.js';
export * from './operator/sign-out.js';
export * from './operator/get-session.js';
export * from './operator/list-bookings.js';
export * from './operator/get-booking.js';
export * from './operator/export-bookings.js';
export * from './operator/list-activities.js';
export type * from './operation-types.js';
export * from './operator/timeslots.schemas.js';
export * from './operator/list-timeslots.js';
export * from './operator/change-timeslot.js';
export * from './operator/create-sale.js';
export type { Booking } from './partner/create-booking.js';
export * from './operator/keys.js';
export * from './operator/get-usage.js';
export * from './operator/failed-events.js';
export type { UsageSummary } from './usage/get-usage-summary.js';
export { SCOPES } from './operation.js';
export * from './operator/activities.js';
export * from './operator/users.js';
