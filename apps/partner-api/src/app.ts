// The partner (OTA) API as an Express app without listen(): products, availability, waiver questions, bookings and
// their lifecycle (look up, confirm, cancel, change, sync), files for waiver answers, the partner's webhook endpoints,
// the operators' booking pages' public API (/api/v2/shop), and OCTO at /octo over the same inventory and use cases.
// server.ts wires the real dependencies; tests drive it in-process against real PostgreSQL.
import type { Express } from 'express';
import { OCTO_OPERATIONS, PARTNER_OPERATIONS, SHOP_OPERATIONS } from '@backbone/contracts';
import { isDatabaseReachable } from '@backbone/db';
import { buildApiDocument, createHttpApp, mountOperations } from '@backbone/http';
import type { PartnerAppDeps } from './deps.js';
import { createShopPages } from './shop-pages.js';
import { createOctoRouter } from './octo/octo-http.js';
import { serveBookingPage } from './booking-page-static.js';
import { mountGetOctoSupplier } from './routes/octo/get-octo-supplier.js';
import { mountListOctoProducts } from './routes/octo/list-octo-products.js';
import { mountGetOctoProduct } from './routes/octo/get-octo-product.js';
import { mountGetOctoAvailabilityCalendar } from './routes/octo/get-octo-availability-calendar.js';
import { mountCheckOctoAvailability } from './routes/octo/check-octo-availability.js';
import { mountReserveOctoBooking } from './routes/octo/reserve-octo-booking.js';
import { mountExtendOctoBooking } from './routes/octo/extend-octo-booking.js';
import { mountConfirmOctoBooking } from './routes/octo/confirm-octo-booking.js';
import { mountUpdateOctoBooking } from './routes/octo/update-octo-booking.js';
import { mountCancelOctoBooking } from './routes/octo/cancel-octo-booking.js';
import { mountDeleteOctoBooking } from './routes/octo/delete-octo-booking.js';
import { mountGetOctoBooking } from './routes/octo/get-octo-booking.js';
import { mountListOctoBookings } from './routes/octo/list-octo-bookings.js';
import { mountCancelBooking } from './routes/cancel-booking.js';
import { mountChangeBooking } from './routes/change-booking.js';
import { mountConfirmBooking } from './routes/confirm-booking.js';
import { mountCreateBooking } from './routes/create-booking.js';
import { mountGetBooking } from './routes/get-booking.js';
import { mountListAvailableDates } from './routes/list-available-dates.js';
import { mountListAvailableTimeslots } from './routes/list-available-timeslots.js';
import { mountListCoreQuestions } from './routes/list-core-questions.js';
import { mountListPartnerQuestions } from './routes/list-partner-questions.js';
import { mountListProducts } from './routes/list-products.js';
import { mountResolveProduct } from './routes/resolve-product.js';
import { mountSyncBookings } from './routes/sync-bookings.js';
import { mountUploadFile } from './routes/upload-file.js';
import { mountCreateWebhookEndpoint } from './routes/create-webhook-endpoint.js';
import { mountDeleteWebhookEndpoint } from './routes/delete-webhook-endpoint.js';
import { mountListWebhookDeliveries } from './routes/list-webhook-deliveries.js';
import { mountListWebhookEndpoints } from './routes/list-webhook-endpoints.js';
import { mountReplayWebhookDeliveries } from './routes/replay-webhook-deliveries.js';
import { mountReplayWebhookDelivery } from './routes/replay-webhook-delivery.js';
import { mountUpdateWebhookEndpoint } from './routes/update-webhook-endpoint.js';
import { mountGetShopPage } from './routes/shop/get-shop-page.js';
import { mountGetShopActivity } from './routes/shop/get-shop-activity.js';
import { mountListShopDates } from './routes/shop/list-shop-dates.js';
import { mountListShopTimeslots } from './routes/shop/list-shop-timeslots.js';
import { mountCreateShopHold } from './routes/shop/create-shop-hold.js';
import { mountReleaseShopHold } from './routes/shop/release-shop-hold.js';
import { mountUploadShopFile } from './routes/shop/upload-shop-file.js';
import { mountConfirmShopHold } from './routes/shop/confirm-shop-hold.js';
import { mountGetShopBooking } from './routes/shop/get-shop-booking.js';
import { mountCancelShopBooking } from './routes/shop/cancel-shop-booking.js';
import { mountMoveShopBooking } from './routes/shop/move-shop-booking.js';
import { mountJoinShopWaitlist } from './routes/shop/join-shop-waitlist.js';
import { mountGetShopWaitlistOffer } from './routes/shop/get-shop-waitlist-offer.js';
import { mountClaimShopWaitlistOffer } from './routes/shop/claim-shop-waitlist-offer.js';

export function createPartnerApp(deps: PartnerAppDeps): Express {
  // One look-up (and one cache) for the shop API and the page's framing: a page turned off stops both at once.
  const shopPages = deps.shopPages ?? createShopPages(deps.pool);
  const app = createHttpApp({
    logger: deps.logger,
    problemBase: deps.problemBase,
    recordMetrics: deps.recordMetrics ?? true,
    readiness: { database: () => isDatabaseReachable(deps.pool) },
    openApiDocument: buildApiDocument(),
    mount(routes) {
      mountOperations(
        routes,
        PARTNER_OPERATIONS,
        {
          listProducts: mountListProducts,
          resolveProduct: mountResolveProduct,
          listAvailableDates: mountListAvailableDates,
          listAvailableTimeslots: mountListAvailableTimeslots,
          listPartnerQuestions: mountListPartnerQuestions,
          listCoreQuestions: mountListCoreQuestions,
          createBooking: mountCreateBooking,
          getBooking: mountGetBooking,
          confirmBooking: mountConfirmBooking,
          cancelBooking: mountCancelBooking,
          changeBooking: mountChangeBooking,
          syncBookings: mountSyncBookings,
          uploadFile: mountUploadFile,
          createWebhookEndpoint: mountCreateWebhookEndpoint,
          listWebhookEndpoints: mountListWebhookEndpoints,
          updateWebhookEndpoint: mountUpdateWebhookEndpoint,
          deleteWebhookEndpoint: mountDeleteWebhookEndpoint,
          listWebhookDeliveries: mountListWebhookDeliveries,
          replayWebhookDelivery: mountReplayWebhookDelivery,
          replayWebhookDeliveries: mountReplayWebhookDeliveries,
        },
        deps,
      );
      mountOperations(
        routes,
        SHOP_OPERATIONS,
        {
          getShopPage: mountGetShopPage,
          getShopActivity: mountGetShopActivity,
          listShopDates: mountListShopDates,
          listShopTimeslots: mountListShopTimeslots,
          createShopHold: mountCreateShopHold,
          releaseShopHold: mountReleaseShopHold,
          uploadShopFile: mountUploadShopFile,
          confirmShopHold: mountConfirmShopHold,
          getShopBooking: mountGetShopBooking,
          cancelShopBooking: mountCancelShopBooking,
          moveShopBooking: mountMoveShopBooking,
          joinShopWaitlist: mountJoinShopWaitlist,
          getShopWaitlistOffer: mountGetShopWaitlistOffer,
          claimShopWaitlistOffer: mountClaimShopWaitlistOffer,
        },
        { ...deps, shopPages },
      );
    },
    // OCTO under /octo, answering in OCTO's error form (octo/octo-http.ts); the customers' booking page under /book.
    extraRoutes(app) {
      if (deps.bookingPageDir) serveBookingPage(app, deps.bookingPageDir, (slug) => shopPages.find(slug));
      app.use(
        createOctoRouter((routes) =>
          mountOperations(
            routes,
            OCTO_OPERATIONS,
            {
              getOctoSupplier: mountGetOctoSupplier,
              listOctoProducts: mountListOctoProducts,
              getOctoProduct: mountGetOctoProduct,
              getOctoAvailabilityCalendar: mountGetOctoAvailabilityCalendar,
              checkOctoAvailability: mountCheckOctoAvailability,
              reserveOctoBooking: mountReserveOctoBooking,
              extendOctoBooking: mountExtendOctoBooking,
              confirmOctoBooking: mountConfirmOctoBooking,
              updateOctoBooking: mountUpdateOctoBooking,
              cancelOctoBooking: mountCancelOctoBooking,
              deleteOctoBooking: mountDeleteOctoBooking,
              getOctoBooking: mountGetOctoBooking,
              listOctoBookings: mountListOctoBookings,
            },
            deps,
          ),
        ),
      );
    },
  });
  // The gateway in front (loopback or a private network) says who the caller is: the shop API's limits count per
  // client address.
  app.set('trust proxy', 'loopback, uniquelocal');
  return app;
}
