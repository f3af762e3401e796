// The operator console's operations in one list (session cookie or admin key, and signing in): the operator API mounts
// them, ALL_OPERATIONS (operations.ts) includes them, and the permission table is read from them. Apart from the other
// APIs' lists so that the console's bundle, which imports the permission table, carries no partner operation.
import { addOperatorQuestionOperation } from './add-operator-question.js';
import { cancelOperatorBookingOperation } from './cancel-operator-booking.js';
import { changeOperatorBookingOperation } from './change-operator-booking.js';
import { changeOwnPasswordOperation } from './change-own-password.js';
import { changeTimeslotCapacityOperation } from './change-timeslot-capacity.js';
import { checkInOperatorBookingOperation } from './check-in-operator-booking.js';
import { closeTimeslotOperation } from './close-timeslot.js';
import { createOperatorActivityOperation } from './create-operator-activity.js';
import { createOperatorKeyOperation } from './create-operator-key.js';
import { createOperatorUserOperation } from './create-operator-user.js';
import { createSaleOperation } from './create-sale.js';
import { disableOperatorUserOperation } from './disable-operator-user.js';
import { downloadOperatorFileOperation } from './download-operator-file.js';
import { uploadOperatorFileOperation } from './upload-operator-file.js';
import { editOperatorActivityOperation } from './edit-operator-activity.js';
import { exportOperatorBookingsOperation } from './export-operator-bookings.js';
import { generateTimeslotsOperation } from './generate-timeslots.js';
import { getOperatorBookingOperation } from './get-operator-booking.js';
import { getOperatorBookingPageOperation } from './get-operator-booking-page.js';
import { getOperatorManifestOperation } from './get-operator-manifest.js';
import { getOperatorSalesReportOperation } from './get-operator-sales-report.js';
import { getOperatorSessionOperation } from './get-operator-session.js';
import { getOperatorUsageOperation } from './get-operator-usage.js';
import { listFailedEventsOperation } from './list-failed-events.js';
import { listOperatorAuditOperation } from './list-operator-audit.js';
import { listOperatorActivitiesOperation } from './list-operator-activities.js';
import { listOperatorBookingHistoryOperation } from './list-operator-booking-history.js';
import { listOperatorBookingsOperation } from './list-operator-bookings.js';
import { listOperatorKeysOperation } from './list-operator-keys.js';
import { listOperatorQuestionsOperation } from './list-operator-questions.js';
import { listOperatorTimeslotsOperation } from './list-operator-timeslots.js';
import { listOperatorUsersOperation } from './list-operator-users.js';
import { removeEmptyTimeslotsOperation } from './remove-empty-timeslots.js';
import { reopenTimeslotOperation } from './reopen-timeslot.js';
import { rescheduleOperatorBookingOperation } from './reschedule-operator-booking.js';
import { replayFailedEventOperation } from './replay-failed-event.js';
import { revokeOperatorKeyOperation } from './revoke-operator-key.js';
import { signInOperation } from './sign-in.js';
import { signOutOperation } from './sign-out.js';
import { chooseOperatorAccountOperation } from './choose-operator-account.js';
import { openOperatorInvitationOperation } from './open-operator-invitation.js';
import { undoOperatorCheckInOperation } from './undo-operator-check-in.js';
import { getMailSettingsOperation } from './get-mail-settings.js';
import { updateMailSettingsOperation } from './update-mail-settings.js';
import { previewMailOperation } from './preview-mail.js';
import { sendTestMailOperation } from './send-test-mail.js';
import { listMailMessagesOperation } from './list-mail-messages.js';
import { setPartnerCustomerEmailsOperation } from './set-partner-customer-emails.js';
import { updateOperatorBookingPageOperation } from './update-operator-booking-page.js';
import { listTimeslotWaitlistOperation } from './list-timeslot-waitlist.js';
import { addWaitlistEntryOperation } from './add-waitlist-entry.js';
import { removeWaitlistEntryOperation } from './remove-waitlist-entry.js';
import { offerWaitlistEntryOperation } from './offer-waitlist-entry.js';
import { bookWaitlistEntryOperation } from './book-waitlist-entry.js';
import { inviteOperatorUserOperation } from './invite-operator-user.js';
import { listOperatorInvitationsOperation } from './list-operator-invitations.js';
import { resendOperatorInvitationOperation } from './resend-operator-invitation.js';
import { revokeOperatorInvitationOperation } from './revoke-operator-invitation.js';
import { acceptOperatorInvitationOperation } from './accept-operator-invitation.js';
import { requestPasswordResetOperation } from './request-password-reset.js';
import { completePasswordResetOperation } from './complete-password-reset.js';

/** The operator console's API (session cookie or admin key). */
export const OPERATOR_OPERATIONS = [
  signInOperation,
  getOperatorSessionOperation,
  signOutOperation,
  chooseOperatorAccountOperation,
  changeOwnPasswordOperation,
  openOperatorInvitationOperation,
  acceptOperatorInvitationOperation,
  requestPasswordResetOperation,
  completePasswordResetOperation,
  listOperatorBookingsOperation,
  exportOperatorBookingsOperation,
  getOperatorBookingOperation,
  cancelOperatorBookingOperation,
  rescheduleOperatorBookingOperation,
  changeOperatorBookingOperation,
  checkInOperatorBookingOperation,
  undoOperatorCheckInOperation,
  getOperatorManifestOperation,
  listOperatorBookingHistoryOperation,
  getOperatorSalesReportOperation,
  downloadOperatorFileOperation,
  uploadOperatorFileOperation,
  listOperatorActivitiesOperation,
  createSaleOperation,
  listOperatorTimeslotsOperation,
  closeTimeslotOperation,
  reopenTimeslotOperation,
  changeTimeslotCapacityOperation,
  listTimeslotWaitlistOperation,
  addWaitlistEntryOperation,
  removeWaitlistEntryOperation,
  offerWaitlistEntryOperation,
  bookWaitlistEntryOperation,
  listOperatorKeysOperation,
  createOperatorKeyOperation,
  revokeOperatorKeyOperation,
  getOperatorUsageOperation,
  listFailedEventsOperation,
  replayFailedEventOperation,
  createOperatorActivityOperation,
  editOperatorActivityOperation,
  listOperatorQuestionsOperation,
  addOperatorQuestionOperation,
  generateTimeslotsOperation,
  removeEmptyTimeslotsOperation,
  listOperatorUsersOperation,
  createOperatorUserOperation,
  disableOperatorUserOperation,
  listOperatorInvitationsOperation,
  inviteOperatorUserOperation,
  resendOperatorInvitationOperation,
  revokeOperatorInvitationOperation,
  listOperatorAuditOperation,
  getMailSettingsOperation,
  updateMailSettingsOperation,
  previewMailOperation,
  sendTestMailOperation,
  listMailMessagesOperation,
  setPartnerCustomerEmailsOperation,
  getOperatorBookingPageOperation,
  updateOperatorBookingPageOperation,
] as const;
