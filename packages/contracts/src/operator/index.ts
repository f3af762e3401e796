// The operator (console) operations, one file each: the one list of them that both entries of the package re-export.
export * from './sign-in.js';
export * from './sign-out.js';
export * from './get-session.js';
export * from './list-bookings.js';
export * from './get-booking.js';
export * from './export-bookings.js';
export * from './list-activities.js';
export * from './timeslots.schemas.js';
export * from './list-timeslots.js';
export * from './change-timeslot.js';
export * from './create-sale.js';
export * from './keys.js';
export * from './get-usage.js';
export * from './failed-events.js';
export * from './activities.js';
export * from './users.js';
export * from './permissions.js';
