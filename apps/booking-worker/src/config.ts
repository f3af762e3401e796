// The booking worker's configuration, parsed once at boot from the environment.
import { commonEnv, fileStoreEnv, loadConfig, metricsEnv, redisEnv, type ConfigOf } from '@backbone/config';

export const bookingWorkerEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...redisEnv,
    ...metricsEnv,
    METRICS_PORT: { ...metricsEnv.METRICS_PORT, default: 9106 },
    SHUTDOWN_TIMEOUT_MS: {
      type: 'integer',
      default: 25000,
      minimum: 0,
      description:
        "On SIGTERM, how long the outbox relay's and the hold sweeper's passes in flight may take to finish; after it the process exits, and what a pass had not committed is done again by the next one. Keep it below the orchestrator's grace period (compose: 30 s).",
    },
    OUTBOX_RELAY_ENABLED: { type: 'boolean', default: true, description: 'Run the outbox relay in this process (any number of relays may run side by side).' },
    OUTBOX_RELAY_INTERVAL_MS: {
      type: 'integer',
      default: 50,
      minimum: 10,
      description:
        'Pause of the outbox relay when it found nothing (or less than a batch) to send. An event waits half of it on average before it is relayed (webhooks are measured from the commit); a pass after one that found nothing is one indexed query until there is something to send.',
    },
    OUTBOX_RELAY_BATCH_SIZE: { type: 'integer', default: 500, minimum: 1, maximum: 10000, description: 'Outbox rows moved to the queue per transaction.' },
    OUTBOX_QUEUE_MAX_BACKLOG: {
      type: 'integer',
      default: 50000,
      minimum: 1,
      description:
        'Jobs waiting on the booking-events queue beyond which the relay leaves events in the outbox (PostgreSQL) until consumers catch up; keeps a queue without consumers from filling Redis.',
    },
    HOLD_SWEEPER_ENABLED: {
      type: 'boolean',
      default: true,
      description:
        'Run the hold sweeper in this process (several may run side by side): it marks lapsed holds expired, releases their places and writes booking.expired. Their places are free from the expiry whether or not it runs.',
    },
    HOLD_SWEEPER_INTERVAL_MS: {
      type: 'integer',
      default: 1000,
      minimum: 10,
      description: 'Pause of the hold sweeper between passes that found less than a batch.',
    },
    HOLD_SWEEPER_BATCH_SIZE: {
      type: 'integer',
      default: 100,
      minimum: 1,
      maximum: 10000,
      description: 'Timeslots with lapsed holds released per pass (one statement each).',
    },
    WAITLIST_OFFERS_ENABLED: {
      type: 'boolean',
      default: true,
      description:
        'Run the waitlist offers in this process (several may run side by side): places that free up are held for the earliest waiting entries that fit and offered by e-mail; offers not claimed in time pass on.',
    },
    WAITLIST_OFFERS_INTERVAL_MS: {
      type: 'integer',
      default: 1000,
      minimum: 10,
      description:
        'Pause of the waitlist offers between passes: freed places wait about this long before they are offered (an ordinary booking may take them first).',
    },
    WAITLIST_OFFERS_BATCH_SIZE: { type: 'integer', default: 100, minimum: 1, maximum: 10000, description: 'Timeslots with freed places offered per pass.' },
    ...fileStoreEnv,
    FILE_SWEEPER_ENABLED: {
      type: 'boolean',
      default: true,
      description:
        'Run the file sweeper in this process (several may run side by side): it deletes uploaded files no booking referenced within 24 hours, and uploads a crash cut off an hour ago, from FILE_STORE and the database.',
    },
    FILE_SWEEPER_INTERVAL_MS: {
      type: 'integer',
      default: 60000,
      minimum: 10,
      description: 'Pause of the file sweeper between passes that found less than a batch (a file lives at most this much past its 24 hours).',
    },
    FILE_SWEEPER_BATCH_SIZE: { type: 'integer', default: 100, minimum: 1, maximum: 10000, description: 'Files deleted per pass.' },
  },
} as const;

export type BookingWorkerConfig = ConfigOf<typeof bookingWorkerEnv>;

export function loadBookingWorkerConfig(env: Record<string, string | undefined> = process.env): BookingWorkerConfig {
  return loadConfig(bookingWorkerEnv, env);
}
