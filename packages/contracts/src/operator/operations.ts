// The operator console's operations in one list (session cookie or admin key, and signing in): the operator API mounts
// them, ALL_OPERATIONS (operations.ts) includes them, and the permission table is read from them. Apart from the other
// APIs' lists so that the console's bundle, which imports the permission table, carries no partner operation.
import {
  addActivityQuestionOperation,
  createActivityOperation,
  editActivityOperation,
  generateTimeslotsOperation,
  listActivityQuestionsOperation,
} from './activities.js';
import { changeTimeslotCapacityOperation, closeTimeslotOperation, reopenTimeslotOperation } from './change-timeslot.js';
import { createOperatorKeyOperation, listOperatorKeysOperation, revokeOperatorKeyOperation } from './keys.js';
import { createOperatorUserOperation, disableOperatorUserOperation, listOperatorUsersOperation } from './users.js';
import { createSaleOperation } from './create-sale.js';
import { downloadOperatorFileOperation } from './download-operator-file.js';
import { exportOperatorBookingsOperation } from './export-bookings.js';
import { getOperatorBookingOperation } from './get-booking.js';
import { getOperatorUsageOperation } from './get-usage.js';
import { getSessionOperation } from './get-session.js';
import { listFailedEventsOperation, replayFailedEventOperation } from './failed-events.js';
import { listOperatorActivitiesOperation } from './list-activities.js';
import { listOperatorBookingsOperation } from './list-bookings.js';
import { listOperatorTimeslotsOperation } from './list-timeslots.js';
import { signInOperation } from './sign-in.js';
import { signOutOperation } from './sign-out.js';

/** The operator console's API (session cookie or admin key). */
export const OPERATOR_OPERATIONS = [
  signInOperation,
  getSessionOperation,
  signOutOperation,
  listOperatorBookingsOperation,
  exportOperatorBookingsOperation,
  getOperatorBookingOperation,
  downloadOperatorFileOperation,
  listOperatorActivitiesOperation,
  createSaleOperation,
  listOperatorTimeslotsOperation,
  closeTimeslotOperation,
  reopenTimeslotOperation,
  changeTimeslotCapacityOperation,
  listOperatorKeysOperation,
  createOperatorKeyOperation,
  revokeOperatorKeyOperation,
  getOperatorUsageOperation,
  listFailedEventsOperation,
  replayFailedEventOperation,
  createActivityOperation,
  editActivityOperation,
  listActivityQuestionsOperation,
  addActivityQuestionOperation,
  generateTimeslotsOperation,
  listOperatorUsersOperation,
  createOperatorUserOperation,
  disableOperatorUserOperation,
] as const;
