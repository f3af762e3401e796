// The operator API as an Express app without listen(): the console's sign-in, bookings, sales, availability,
// activities, keys, users, usage, failed events and the audit log, plus the built console itself under /console.
import type { Express } from 'express';
import { OPERATOR_OPERATIONS } from '@backbone/contracts';
import { isDatabaseReachable } from '@backbone/db';
import { buildApiDocument, createHttpApp, mountOperations } from '@backbone/http';
import { serveConsole } from './console-static.js';
import type { OperatorAppDeps } from './deps.js';
import { mountAddOperatorQuestion } from './routes/add-operator-question.js';
import { mountCancelOperatorBooking } from './routes/cancel-operator-booking.js';
import { mountChangeOperatorBooking } from './routes/change-operator-booking.js';
import { mountChangeOwnPassword } from './routes/change-own-password.js';
import { mountChangeTimeslotCapacity } from './routes/change-timeslot-capacity.js';
import { mountListTimeslotWaitlist } from './routes/list-timeslot-waitlist.js';
import { mountAddWaitlistEntry } from './routes/add-waitlist-entry.js';
import { mountRemoveWaitlistEntry } from './routes/remove-waitlist-entry.js';
import { mountOfferWaitlistEntry } from './routes/offer-waitlist-entry.js';
import { mountBookWaitlistEntry } from './routes/book-waitlist-entry.js';
import { mountCheckInOperatorBooking } from './routes/check-in-operator-booking.js';
import { mountCloseTimeslot } from './routes/close-timeslot.js';
import { mountCreateOperatorActivity } from './routes/create-operator-activity.js';
import { mountCreateOperatorKey } from './routes/create-operator-key.js';
import { mountCreateOperatorUser } from './routes/create-operator-user.js';
import { mountCreateSale } from './routes/create-sale.js';
import { mountDisableOperatorUser } from './routes/disable-operator-user.js';
import { mountEditOperatorActivity } from './routes/edit-operator-activity.js';
import { mountDownloadOperatorFile } from './routes/download-operator-file.js';
import { mountUploadOperatorFile } from './routes/upload-operator-file.js';
import { mountExportOperatorBookings } from './routes/export-operator-bookings.js';
import { mountGenerateTimeslots } from './routes/generate-timeslots.js';
import { mountGetOperatorBooking } from './routes/get-operator-booking.js';
import { mountGetOperatorManifest } from './routes/get-operator-manifest.js';
import { mountGetOperatorSalesReport } from './routes/get-operator-sales-report.js';
import { mountGetOperatorSession } from './routes/get-operator-session.js';
import { mountGetOperatorUsage } from './routes/get-operator-usage.js';
import { mountListFailedEvents } from './routes/list-failed-events.js';
import { mountListOperatorAudit } from './routes/list-operator-audit.js';
import { mountGetOperatorBookingPage } from './routes/get-operator-booking-page.js';
import { mountUpdateOperatorBookingPage } from './routes/update-operator-booking-page.js';
import { mountListOperatorActivities } from './routes/list-operator-activities.js';
import { mountListOperatorBookingHistory } from './routes/list-operator-booking-history.js';
import { mountListOperatorBookings } from './routes/list-operator-bookings.js';
import { mountListOperatorKeys } from './routes/list-operator-keys.js';
import { mountListOperatorQuestions } from './routes/list-operator-questions.js';
import { mountListOperatorTimeslots } from './routes/list-operator-timeslots.js';
import { mountListOperatorUsers } from './routes/list-operator-users.js';
import { mountRemoveEmptyTimeslots } from './routes/remove-empty-timeslots.js';
import { mountReopenTimeslot } from './routes/reopen-timeslot.js';
import { mountRescheduleOperatorBooking } from './routes/reschedule-operator-booking.js';
import { mountReplayFailedEvent } from './routes/replay-failed-event.js';
import { mountRevokeOperatorKey } from './routes/revoke-operator-key.js';
import { mountSignIn } from './routes/sign-in.js';
import { mountSignOut } from './routes/sign-out.js';
import { mountUndoOperatorCheckIn } from './routes/undo-operator-check-in.js';
import { mountGetMailSettings } from './routes/get-mail-settings.js';
import { mountUpdateMailSettings } from './routes/update-mail-settings.js';
import { mountPreviewMail } from './routes/preview-mail.js';
import { mountSendTestMail } from './routes/send-test-mail.js';
import { mountListMailMessages } from './routes/list-mail-messages.js';
import { mountSetPartnerCustomerEmails } from './routes/set-partner-customer-emails.js';
import { mountAcceptOperatorInvitation } from './routes/accept-operator-invitation.js';
import { mountOpenOperatorInvitation } from './routes/open-operator-invitation.js';
import { mountChooseOperatorAccount } from './routes/choose-operator-account.js';
import { mountRequestPasswordReset } from './routes/request-password-reset.js';
import { mountCompletePasswordReset } from './routes/complete-password-reset.js';
import { mountListOperatorInvitations } from './routes/list-operator-invitations.js';
import { mountInviteOperatorUser } from './routes/invite-operator-user.js';
import { mountResendOperatorInvitation } from './routes/resend-operator-invitation.js';
import { mountRevokeOperatorInvitation } from './routes/revoke-operator-invitation.js';

export function createOperatorApp(deps: OperatorAppDeps): Express {
  const app = createHttpApp({
    logger: deps.logger,
    problemBase: deps.problemBase,
    recordMetrics: deps.recordMetrics ?? true,
    readiness: { database: () => isDatabaseReachable(deps.pool), redis: deps.redisReady },
    openApiDocument: buildApiDocument(),
    mount(routes) {
      mountOperations(
        routes,
        OPERATOR_OPERATIONS,
        {
          signIn: mountSignIn,
          getOperatorSession: mountGetOperatorSession,
          signOut: mountSignOut,
          chooseOperatorAccount: mountChooseOperatorAccount,
          openOperatorInvitation: mountOpenOperatorInvitation,
          changeOwnPassword: mountChangeOwnPassword,
          acceptOperatorInvitation: mountAcceptOperatorInvitation,
          requestPasswordReset: mountRequestPasswordReset,
          completePasswordReset: mountCompletePasswordReset,
          listOperatorBookings: mountListOperatorBookings,
          exportOperatorBookings: mountExportOperatorBookings,
          getOperatorBooking: mountGetOperatorBooking,
          cancelOperatorBooking: mountCancelOperatorBooking,
          rescheduleOperatorBooking: mountRescheduleOperatorBooking,
          changeOperatorBooking: mountChangeOperatorBooking,
          checkInOperatorBooking: mountCheckInOperatorBooking,
          undoOperatorCheckIn: mountUndoOperatorCheckIn,
          getOperatorManifest: mountGetOperatorManifest,
          listOperatorBookingHistory: mountListOperatorBookingHistory,
          getOperatorSalesReport: mountGetOperatorSalesReport,
          downloadOperatorFile: mountDownloadOperatorFile,
          uploadOperatorFile: mountUploadOperatorFile,
          listOperatorActivities: mountListOperatorActivities,
          createSale: mountCreateSale,
          listOperatorTimeslots: mountListOperatorTimeslots,
          closeTimeslot: mountCloseTimeslot,
          reopenTimeslot: mountReopenTimeslot,
          changeTimeslotCapacity: mountChangeTimeslotCapacity,
          listTimeslotWaitlist: mountListTimeslotWaitlist,
          addWaitlistEntry: mountAddWaitlistEntry,
          removeWaitlistEntry: mountRemoveWaitlistEntry,
          offerWaitlistEntry: mountOfferWaitlistEntry,
          bookWaitlistEntry: mountBookWaitlistEntry,
          listOperatorKeys: mountListOperatorKeys,
          createOperatorKey: mountCreateOperatorKey,
          revokeOperatorKey: mountRevokeOperatorKey,
          getOperatorUsage: mountGetOperatorUsage,
          listFailedEvents: mountListFailedEvents,
          replayFailedEvent: mountReplayFailedEvent,
          createOperatorActivity: mountCreateOperatorActivity,
          editOperatorActivity: mountEditOperatorActivity,
          listOperatorQuestions: mountListOperatorQuestions,
          addOperatorQuestion: mountAddOperatorQuestion,
          generateTimeslots: mountGenerateTimeslots,
          removeEmptyTimeslots: mountRemoveEmptyTimeslots,
          listOperatorUsers: mountListOperatorUsers,
          createOperatorUser: mountCreateOperatorUser,
          disableOperatorUser: mountDisableOperatorUser,
          listOperatorInvitations: mountListOperatorInvitations,
          inviteOperatorUser: mountInviteOperatorUser,
          resendOperatorInvitation: mountResendOperatorInvitation,
          revokeOperatorInvitation: mountRevokeOperatorInvitation,
          listOperatorAudit: mountListOperatorAudit,
          getMailSettings: mountGetMailSettings,
          updateMailSettings: mountUpdateMailSettings,
          previewMail: mountPreviewMail,
          sendTestMail: mountSendTestMail,
          listMailMessages: mountListMailMessages,
          setPartnerCustomerEmails: mountSetPartnerCustomerEmails,
          getOperatorBookingPage: mountGetOperatorBookingPage,
          updateOperatorBookingPage: mountUpdateOperatorBookingPage,
        },
        deps,
      );
    },
    extraRoutes: deps.consoleDir ? (express) => serveConsole(express, deps.consoleDir!) : undefined,
  });
  // The gateway in front (loopback or a private network) says who the caller is and whether it came over https:
  // the sign-in throttle counts per caller address, and the session cookie is Secure behind https.
  app.set('trust proxy', 'loopback, uniquelocal');
  return app;
}
