// The partner (OTA) API as an Express app without listen(): products, availability, waiver questions and bookings.
// server.ts wires the real dependencies; tests drive it in-process against real PostgreSQL.
import type { Express } from 'express';
import { partnerOperations, platformOperations, usageOperations } from '@backbone/contracts';
import { isDatabaseReachable } from '@backbone/db';
import { buildOpenApiDocument, createHttpApp, type Logger, type RouteDeps } from '@backbone/http';
import { mountCreateBooking } from './routes/create-booking.js';
import { mountListAvailableDates } from './routes/list-available-dates.js';
import { mountListAvailableTimeslots } from './routes/list-available-timeslots.js';
import { mountListCoreQuestions } from './routes/list-core-questions.js';
import { mountListPartnerQuestions } from './routes/list-partner-questions.js';
import { mountListProducts } from './routes/list-products.js';
import { mountResolveProduct } from './routes/resolve-product.js';

export interface PartnerAppDeps extends RouteDeps {
  logger: Logger;
  /** Base URI of the problem `type`s. */
  problemBase: string;
}

export function createPartnerApp(deps: PartnerAppDeps): Express {
  return createHttpApp({
    logger: deps.logger,
    problemBase: deps.problemBase,
    readiness: { database: () => isDatabaseReachable(deps.pool) },
    // One base URL serves every API, so each app publishes the whole document.
    openApiDocument: buildOpenApiDocument([...partnerOperations, ...usageOperations, ...platformOperations], {
      title: 'Activity backbone API',
      version: '2.0.0',
      description: 'Partner (OTA) booking API, usage metering API and platform events, under one base URL.',
    }),
    mount(routes) {
      mountListProducts(routes, deps);
      mountResolveProduct(routes, deps);
      mountListAvailableDates(routes, deps);
      mountListAvailableTimeslots(routes, deps);
      mountListPartnerQuestions(routes, deps);
      mountListCoreQuestions(routes, deps);
      mountCreateBooking(routes, deps);
    },
  });
}
