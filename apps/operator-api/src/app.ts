// The operator API as an Express app without listen(): the console's sign-in, bookings, sales, availability,
// activities, keys, usage and failed events, plus the built console itself under /console.
import type { Express } from 'express';
import { OPERATOR_OPERATIONS } from '@backbone/contracts';
import { isDatabaseReachable } from '@backbone/db';
import { buildApiDocument, createHttpApp, mountOperations } from '@backbone/http';
import { serveConsole } from './console-static.js';
import type { OperatorAppDeps } from './deps.js';
import { mountAddQuestion, mountCreateActivity, mountEditActivity, mountGenerateTimeslots, mountListQuestions } from './routes/activities.js';
import { mountChangeTimeslotCapacity, mountCloseTimeslot, mountReopenTimeslot } from './routes/change-timeslot.js';
import { mountCreateSale } from './routes/create-sale.js';
import { mountListFailedEvents, mountReplayFailedEvent } from './routes/failed-events.js';
import { mountGetUsage } from './routes/get-usage.js';
import { mountCreateKey, mountListKeys, mountRevokeKey } from './routes/keys.js';
import { mountDownloadOperatorFile } from './routes/download-operator-file.js';
import { mountExportBookings } from './routes/export-bookings.js';
import { mountGetBooking } from './routes/get-booking.js';
import { mountGetSession } from './routes/get-session.js';
import { mountListActivities } from './routes/list-activities.js';
import { mountListBookings } from './routes/list-bookings.js';
import { mountListTimeslots } from './routes/list-timeslots.js';
import { mountSignIn } from './routes/sign-in.js';
import { mountSignOut } from './routes/sign-out.js';
import { mountCreateUser, mountDisableUser, mountListUsers } from './routes/users.js';

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
          getOperatorSession: mountGetSession,
          signOut: mountSignOut,
          listOperatorBookings: mountListBookings,
          exportOperatorBookings: mountExportBookings,
          getOperatorBooking: mountGetBooking,
          downloadOperatorFile: mountDownloadOperatorFile,
          listOperatorActivities: mountListActivities,
          createSale: mountCreateSale,
          listOperatorTimeslots: mountListTimeslots,
          closeTimeslot: mountCloseTimeslot,
          reopenTimeslot: mountReopenTimeslot,
          changeTimeslotCapacity: mountChangeTimeslotCapacity,
          listOperatorKeys: mountListKeys,
          createOperatorKey: mountCreateKey,
          revokeOperatorKey: mountRevokeKey,
          getOperatorUsage: mountGetUsage,
          listFailedEvents: mountListFailedEvents,
          replayFailedEvent: mountReplayFailedEvent,
          createOperatorActivity: mountCreateActivity,
          editOperatorActivity: mountEditActivity,
          listOperatorQuestions: mountListQuestions,
          addOperatorQuestion: mountAddQuestion,
          generateTimeslots: mountGenerateTimeslots,
          listOperatorUsers: mountListUsers,
          createOperatorUser: mountCreateUser,
          disableOperatorUser: mountDisableUser,
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
